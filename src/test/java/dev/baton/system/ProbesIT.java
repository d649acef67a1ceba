package dev.baton.system;

import dev.baton.testkit.Behavior;
import dev.baton.testkit.RecordedRequest;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Background probes on a real server: a connection ejected by failures comes back once its provider heals, with no
 * client request sent to it, and the operator endpoint shows its probes.
 */
class ProbesIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-probes.war")
                .addClasses(ProbesConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, ProbesConfig.class);
    }

    @Test
    void anEjectedConnectionIsRestoredByBackgroundProbesWithoutAnyClientRequestReachingIt() throws Exception {
        simulator.account("primary").setDefault(Behavior.overloaded());
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
            assertEquals(200, response.statusCode(), response::body);
            assertEquals("standby", header(response, "x-baton-connection"));
        }
        JsonObject ejected = connection();
        assertTrue(ejected.getString("state").matches("ejected|probing"), ejected::toString);
        assertEquals("background", ejected.getString("probe"));
        int clientRequests = simulator.account("primary").requestCount();
        assertEquals(2, clientRequests, "the first request's attempt and retry, which ejected it");

        // Out for a few seconds: failed probes, and no client request at all.
        JsonObject failing = awaitConnection(c -> c.getJsonArray("probes").size() >= 2, Duration.ofSeconds(10));
        if (failing.getString("state").equals("ejected")) {
            assertFalse(failing.isNull("next_probe_at"), failing::toString);
        }
        assertEquals("server_error", failing.getJsonArray("probes").getJsonObject(0).getString("outcome"));

        simulator.account("primary").setDefault(Behavior.ok());
        Instant healed = Instant.now();
        // The state turns healthy a moment before the probe that restored it joins the history: wait for both.
        JsonObject restored = awaitConnection(c -> c.getString("state").equals("healthy")
                && !c.getJsonArray("probes").isEmpty()
                && c.getJsonArray("probes").getJsonObject(0).getString("outcome").equals("ok"), Duration.ofSeconds(10));
        Duration took = Duration.between(healed, Instant.now());
        assertTrue(took.compareTo(Duration.ofSeconds(4)) < 0, "restored " + took.toMillis() + " ms after healing");

        // Everything the primary received after the two failures was a probe: a one-token request of Baton's own.
        List<RecordedRequest> received = simulator.account("primary").requests();
        List<RecordedRequest> probes = received.subList(clientRequests, received.size());
        assertTrue(probes.size() >= 3, () -> probes.size() + " probes");
        for (RecordedRequest probe : probes) {
            assertEquals(1, probe.json().getInt("max_completion_tokens"), probe::body);
            assertEquals(Gateway.MODEL, probe.json().getString("model"));
        }

        JsonArray history = restored.getJsonArray("probes");
        JsonObject last = history.getJsonObject(0);
        assertEquals("ok", last.getString("outcome"), restored::toString);
        assertTrue(last.getBoolean("restored"));
        assertEquals(200, last.getInt("http_status"));
        assertEquals("server_error", history.getJsonObject(1).getString("outcome"));
        assertFalse(history.getJsonObject(1).getBoolean("restored"));
        assertTrue(restored.isNull("next_probe_at"));

        // The probes are records of kind probe, listed apart from requests.
        JsonArray probeRecords = awaitRecords("v1/records?kind=probe&connection=primary", probes.size());
        JsonObject newest = probeRecords.getJsonObject(0);
        assertEquals("probe", newest.getString("kind"));
        assertEquals(last.getString("id"), newest.getString("id"));
        assertEquals("primary", newest.getString("connection"));
        JsonArray requests = records("v1/records?connection=primary");
        assertEquals(1, requests.size(), "the default listing holds the client request only: " + requests);
        assertEquals("request", requests.getJsonObject(0).getString("kind"));

        HttpResponse<String> after = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        assertEquals("primary", header(after, "x-baton-connection"), "back in rotation");
    }

    private JsonObject connection() {
        HttpResponse<String> response = admin("v1/connections/primary");
        assertEquals(200, response.statusCode(), response::body);
        return Gateway.json(response.body());
    }

    private JsonObject awaitConnection(Predicate<JsonObject> condition, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        JsonObject c = connection();
        while (!condition.test(c)) {
            assertTrue(System.nanoTime() < end, () -> "not reached within " + within + ": " + connection());
            Thread.sleep(100);
            c = connection();
        }
        return c;
    }

    private JsonArray records(String path) {
        HttpResponse<String> response = admin(path);
        assertEquals(200, response.statusCode(), response::body);
        return Gateway.json(response.body()).getJsonArray("data");
    }

    /** The records at {@code path} once there are at least {@code count} (a database store writes behind). */
    private JsonArray awaitRecords(String path, int count) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        JsonArray found = records(path);
        while (found.size() < count && System.nanoTime() < end) {
            Thread.sleep(100);
            found = records(path);
        }
        assertTrue(found.size() >= count, "listed " + found.size() + " of " + count);
        return found;
    }

    private HttpResponse<String> admin(String path) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).timeout(Gateway.TIMEOUT)
                .header("Authorization", "Bearer " + Gateway.ADMIN_KEY).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
