package dev.baton.system;

import dev.baton.testkit.Behavior;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both demo accounts down: every caller gets an answer at once, never held for a cool-off or a Retry-After, and the
 * answer says when to come back and lists what was tried. Tests share the deployment's health state, hence the order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OutageIT extends ClientSideIT {

    private static final Duration PROMPT = Duration.ofSeconds(3);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-outage.war")
                .addClasses(OutageConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, OutageConfig.class);
    }

    private record Timed(HttpResponse<String> response, Duration took) {
    }

    /** {@code count} requests, {@code concurrency} at a time, each timed by the client. */
    private List<Timed> burst(int count, int concurrency) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<Timed>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> {
                    long start = System.nanoTime();
                    HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
                    return new Timed(response, Duration.ofNanos(System.nanoTime() - start));
                }));
            }
            List<Timed> out = new ArrayList<>();
            for (Future<Timed> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(1)
    void aTotalOutageAnswersEveryRequestPromptlyWithRetryAfterAndTheAttempts() throws Exception {
        simulator.account("primary").setDefault(Behavior.overloaded());
        simulator.account("standby").setDefault(Behavior.overloaded());

        List<Timed> answers = burst(20, 5);

        for (Timed t : answers) {
            HttpResponse<String> r = t.response();
            assertTrue(t.took().compareTo(PROMPT) < 0, "held " + t.took().toMillis() + " ms: " + r.body());
            assertTrue(r.statusCode() == 502 || r.statusCode() == 503, r::body);
            assertEquals("true", header(r, "x-should-retry"));
            long retryAfterMs = Long.parseLong(header(r, "retry-after-ms"));
            assertTrue(retryAfterMs >= 1_000 && retryAfterMs <= 5_000, "retry-after-ms " + retryAfterMs);
            assertEquals((retryAfterMs + 999) / 1000, Long.parseLong(header(r, "retry-after")));
            JsonObject error = Gateway.json(r.body()).getJsonObject("error");
            List<JsonObject> listed = error.getJsonArray("attempts").stream().map(v -> v.asJsonObject()).toList();
            assertFalse(listed.isEmpty(), r::body);
            for (JsonObject a : listed) {
                assertTrue(Gateway.text(a, "connection").matches("primary|standby"), a::toString);
                assertEquals(Gateway.MODEL, a.getString("model"));
                assertTrue(a.getString("kind").matches("server_error|skipped"), a::toString);
                if (a.getString("kind").equals("skipped")) {
                    assertFalse(a.getString("reason").isBlank());
                } else {
                    assertEquals(503, a.getInt("status"));
                    assertEquals("server_is_overloaded", a.getString("provider_code"));
                }
            }
        }
        // Once both are ejected, a request costs no provider call: far fewer calls than 20 requests × 4 attempts.
        int calls = simulator.account("primary").requestCount() + simulator.account("standby").requestCount();
        assertTrue(calls <= 16, "provider calls: " + calls);
        HttpResponse<String> last = answers.get(answers.size() - 1).response();
        assertEquals(503, last.statusCode(), last::body);
        assertEquals("no_available_provider", Gateway.json(last.body()).getJsonObject("error").getString("code"));
    }

    @Test
    @Order(2)
    void everyAccountRateLimitedAnswers429AtOnceWithTheRetryAfter() throws Exception {
        gateway.restoreConnections();
        simulator.account("primary").setDefault(Behavior.rateLimited(Duration.ofSeconds(30)));
        simulator.account("standby").setDefault(Behavior.rateLimited(Duration.ofSeconds(30)));

        // The first request asks both accounts and parks them; the rest skip both.
        List<Timed> answers = burst(1, 1);
        answers.addAll(burst(10, 5));
        for (Timed t : answers) {
            HttpResponse<String> r = t.response();
            assertTrue(t.took().compareTo(PROMPT) < 0, "held " + t.took().toMillis() + " ms");
            assertEquals(429, r.statusCode(), r::body);
            assertEquals("provider_rate_limited", Gateway.json(r.body()).getJsonObject("error").getString("code"));
            long retryAfter = Long.parseLong(header(r, "retry-after"));
            assertTrue(retryAfter > 20 && retryAfter <= 30, "retry-after " + retryAfter);
        }
        assertEquals(2, simulator.account("primary").requestCount() + simulator.account("standby").requestCount(),
                "each account asked once, then skipped while parked");
    }
}
