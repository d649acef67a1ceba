package dev.baton.system;

import dev.baton.testkit.Behavior;

import jakarta.json.JsonObject;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import static dev.baton.system.Gateway.assertHeaderAbsent;
import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Idempotency-Key} on the sample's chat completions: a repeat is answered from the first answer without a
 * second provider call, concurrent duplicates share one call, a reused key with another body and a streaming request
 * with a key are refused, and a failure leaves the key free for the retry. Every test uses keys of its own. Whose is
 * whose: one gateway key's idempotency keys never replay to another, and a key reads only its own records.
 */
class IdempotencyIT extends ClientSideIT {

    private static final String REPLAY = "x-baton-idempotent-replay";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-idempotency.war")
                .addClasses(CallersConfig.class, CostConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, CallersConfig.class);
    }

    @Test
    void aRepeatWithTheSameKeyGetsTheStoredAnswerWithoutASecondProviderCall() {
        String key = newKey();
        String body = Gateway.chatBody(Gateway.ROUTE, false);

        HttpResponse<String> first = post(body, key);
        HttpResponse<String> second = post(body, key);

        assertEquals(200, first.statusCode(), first::body);
        assertHeaderAbsent(first, REPLAY);
        assertEquals(200, second.statusCode(), second::body);
        assertEquals("true", header(second, REPLAY));
        assertEquals(first.body(), second.body());
        for (String name : List.of("x-request-id", "x-baton-connection", "x-baton-model", "x-baton-provider",
                "x-baton-route", "x-baton-route-name")) {
            assertEquals(header(first, name), header(second, name), name);
        }
        assertTrue(header(second, "content-type").startsWith("application/json"));
        assertEquals(1, upstreamRequests(), "one provider call for both");

        HttpResponse<String> otherKey = post(body, newKey());
        assertEquals(200, otherKey.statusCode());
        assertNotEquals(header(first, "x-request-id"), header(otherKey, "x-request-id"));
        assertEquals(2, upstreamRequests(), "another key is another request");
    }

    @Test
    void concurrentDuplicatesShareOneProviderCallAndAllGetTheSameAnswer() throws Exception {
        // The first answer takes a while, so the duplicates arrive while it runs.
        simulator.account("primary").enqueue(Behavior.ok().afterDelay(Duration.ofMillis(1500)));
        String key = newKey();
        String body = Gateway.chatBody(Gateway.ROUTE, false);
        int callers = 5;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                calls.add(pool.submit(() -> {
                    go.await();
                    return post(body, key);
                }));
            }
            go.countDown();
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (Future<HttpResponse<String>> call : calls) {
                responses.add(call.get(Gateway.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            }

            for (HttpResponse<String> r : responses) {
                assertEquals(200, r.statusCode(), r::body);
                assertEquals(responses.get(0).body(), r.body());
                assertEquals(header(responses.get(0), "x-request-id"), header(r, "x-request-id"));
            }
            long replays = responses.stream().filter(r -> r.headers().firstValue(REPLAY).isPresent()).count();
            assertEquals(callers - 1, replays, "all but the first are replays");
            assertEquals(1, upstreamRequests(), "one provider call for five requests");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theSameKeyWithAnotherBodyIsRefusedWith422() {
        String key = newKey();
        assertEquals(200, post(Gateway.chatBody(Gateway.ROUTE, false), key).statusCode());

        HttpResponse<String> other = post(Gateway.chatBody(Gateway.MODEL, false), key);

        assertEquals(422, other.statusCode(), other::body);
        JsonObject error = Gateway.json(other.body()).getJsonObject("error");
        assertEquals("idempotency_key_reused", error.getString("code"));
        assertEquals("Idempotency-Key", error.getString("param"));
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals("false", header(other, "x-should-retry"));
        assertEquals(1, upstreamRequests());
    }

    @Test
    void aFailureReleasesTheKeySoTheRetryCallsTheProviderAgain() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        simulator.account("standby").setDefault(Behavior.overloaded());
        String key = newKey();
        String body = Gateway.chatBody(Gateway.ROUTE, false);

        HttpResponse<String> failed = post(body, key);
        assertTrue(failed.statusCode() >= 500, () -> failed.statusCode() + " " + failed.body());
        int afterFailure = upstreamRequests();
        assertTrue(afterFailure >= 2, "both accounts were tried");

        simulator.account("primary").setDefault(Behavior.ok());
        simulator.account("standby").setDefault(Behavior.ok());
        HttpResponse<String> retried = post(body, key);

        assertEquals(200, retried.statusCode(), retried::body);
        assertHeaderAbsent(retried, REPLAY);
        assertEquals(afterFailure + 1, upstreamRequests(), "the retry ran");
        assertEquals("true", header(post(body, key), REPLAY), "and its success is what is kept");
        assertEquals(afterFailure + 1, upstreamRequests());
    }

    @Test
    void aStreamingRequestWithAKeyIsRefusedBecauseAStreamCannotBeReplayed() {
        HttpResponse<String> response = post(Gateway.chatBody(Gateway.ROUTE, true), newKey());

        assertEquals(400, response.statusCode(), response::body);
        JsonObject error = Gateway.json(response.body()).getJsonObject("error");
        assertEquals("invalid_request", error.getString("code"));
        assertEquals("Idempotency-Key", error.getString("param"));
        assertTrue(error.getString("message").contains("replayed"), error::toString);
        assertEquals(0, upstreamRequests());
    }

    @Test
    void aKeyLongerThan255CharactersIsRefused() {
        assertEquals(200, post(Gateway.chatBody(Gateway.ROUTE, false), "k".repeat(255)).statusCode());

        HttpResponse<String> response = post(Gateway.chatBody(Gateway.ROUTE, false), "k".repeat(256));

        assertEquals(400, response.statusCode(), response::body);
        assertEquals("Idempotency-Key", Gateway.json(response.body()).getJsonObject("error").getString("param"));
        assertEquals(1, upstreamRequests());
    }

    @Test
    void anIdempotencyKeyOfOneGatewayKeyIsNeverReplayedToAnother() {
        String key = newKey();
        String body = Gateway.chatBody(Gateway.ROUTE, false);

        HttpResponse<String> alice = post(body, key, CallersConfig.ALICE_KEY);
        HttpResponse<String> bob = post(body, key, CallersConfig.BOB_KEY);
        HttpResponse<String> aliceAgain = post(body, key, CallersConfig.ALICE_KEY);

        assertEquals(200, alice.statusCode(), alice::body);
        assertEquals(200, bob.statusCode(), bob::body);
        assertHeaderAbsent(bob, REPLAY);
        assertNotEquals(header(alice, "x-request-id"), header(bob, "x-request-id"));
        assertEquals("true", header(aliceAgain, REPLAY));
        assertEquals(header(alice, "x-request-id"), header(aliceAgain, "x-request-id"));
        assertEquals(2, upstreamRequests(), "Alice's and Bob's requests each called the provider once");
    }

    @Test
    void aGatewayKeyReadsOnlyItsOwnRecordsAndAnotherKeysAnswerLikeAnUnknownId() {
        HttpResponse<String> alice = post(Gateway.chatBody(Gateway.ROUTE, false), newKey(), CallersConfig.ALICE_KEY);
        assertEquals(200, alice.statusCode(), alice::body);
        String id = header(alice, "x-request-id");
        String unknown = "req_" + "0".repeat(id.length() - 4);

        HttpResponse<String> asAlice = getRecord(id, CallersConfig.ALICE_KEY);
        HttpResponse<String> asAdmin = getRecord(id, Gateway.ADMIN_KEY);
        HttpResponse<String> asBob = getRecord(id, CallersConfig.BOB_KEY);
        HttpResponse<String> asUnnamed = getRecord(id, Gateway.KEY);
        HttpResponse<String> bobUnknown = getRecord(unknown, CallersConfig.BOB_KEY);

        assertEquals(200, asAlice.statusCode(), asAlice::body);
        assertEquals("alice", Gateway.json(asAlice.body()).getString("caller"));
        assertEquals(200, asAdmin.statusCode(), asAdmin::body);
        for (HttpResponse<String> refused : List.of(asBob, asUnnamed)) {
            assertEquals(404, refused.statusCode(), refused::body);
            assertEquals(bobUnknown.body().replace(unknown, id), refused.body(), "the same answer as an unknown id");
            assertEquals(bobUnknown.headers().firstValue("content-type"), refused.headers().firstValue("content-type"));
        }
        HttpResponse<String> unnamed = post(Gateway.chatBody(Gateway.ROUTE, false), newKey(), Gateway.KEY);
        assertEquals(200, getRecord(header(unnamed, "x-request-id"), Gateway.KEY).statusCode(),
                "a caller without a named key still reads its records");
        assertEquals(404, getRecord(header(unnamed, "x-request-id"), CallersConfig.ALICE_KEY).statusCode());
    }

    private HttpResponse<String> getRecord(String id, String key) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri("v1/requests/" + id)).timeout(Gateway.TIMEOUT)
                .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String body, String idempotencyKey) {
        return post(body, idempotencyKey, Gateway.KEY);
    }

    private HttpResponse<String> post(String body, String idempotencyKey, String gatewayKey) {
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("v1/chat/completions"))
                .timeout(Gateway.TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + gatewayKey)
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return gateway.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static int upstreamRequests() {
        return simulator.account("primary").requestCount() + simulator.account("standby").requestCount();
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }
}
