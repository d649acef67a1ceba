package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AccountScriptingTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    void scriptedBehaviorsAnswerOneRequestEachInOrderThenTheDefaultTakesOver() throws Exception {
        sim.account("a").enqueue(Behavior.serverError(), Behavior.overloaded()).setDefault(Behavior.reply("fallback"));

        assertEquals(500, status("a"));
        assertEquals(503, status("a"));
        HttpResponse<String> third = client.complete(sim.baseUrl("a"), "gpt-4o");
        assertEquals("fallback", content(third));
        assertEquals("fallback", content(client.complete(sim.baseUrl("a"), "gpt-4o")));
    }

    @Test
    void accountsAreIndependentAndTheSameInstanceEveryTime() throws Exception {
        sim.account("a").setDefault(Behavior.serverError());

        assertSame(sim.account("a"), sim.simulator().account("a"));
        assertEquals(200, status("b"));
        assertEquals(500, status("a"));
        assertEquals("http://127.0.0.1:" + sim.simulator().port() + "/b/v1", sim.baseUrl("b"));
    }

    @Test
    void failForFailsEveryRequestDuringTheWindowThenHandsBackToTheQueue() throws Exception {
        sim.account("a").enqueue(Behavior.reply("queued")).failFor(Duration.ofMillis(400), Behavior.overloaded());
        long windowStart = System.nanoTime();

        assertEquals(503, status("a"));
        assertEquals(503, status("a"));
        long leftInWindow = Duration.ofMillis(450).toNanos() - (System.nanoTime() - windowStart);
        Thread.sleep(Math.max(0, leftInWindow / 1_000_000));

        assertEquals("queued", content(client.complete(sim.baseUrl("a"), "gpt-4o")));
        assertEquals("Hello from a.", content(client.complete(sim.baseUrl("a"), "gpt-4o")));
    }

    @Test
    void theRequestLogKeepsArrivalOrderTimestampsHeadersAndBodies() throws Exception {
        Instant before = Instant.now();
        client.complete(sim.baseUrl("a"), "m1");
        client.complete(sim.baseUrl("a"), "m2");
        client.complete(sim.baseUrl("a"), "m3");
        Instant after = Instant.now();

        List<RecordedRequest> requests = sim.account("a").requests();
        assertEquals(3, sim.account("a").requestCount());
        assertEquals(List.of("m1", "m2", "m3"), requests.stream().map(r -> r.json().getString("model")).toList());
        for (int i = 0; i < requests.size(); i++) {
            RecordedRequest r = requests.get(i);
            assertEquals("a", r.account());
            assertEquals("POST", r.method());
            assertEquals("/a/v1/chat/completions", r.path());
            assertEquals("Bearer sk-test-secret", r.header("AUTHORIZATION").orElseThrow());
            assertTrue(r.headers().containsKey("content-type"));
            assertTrue(!r.receivedAt().isBefore(before) && !r.receivedAt().isAfter(after));
            if (i > 0) {
                assertTrue(r.receivedAt().isAfter(requests.get(i - 1).receivedAt()));
            }
        }
        assertSame(requests.get(2), sim.account("a").lastRequest());
    }

    @Test
    void resetForgetsTheScriptTheDefaultTheFlapTheModelsAndTheLog() throws Exception {
        Account a = sim.account("a").enqueue(Behavior.serverError()).setDefault(Behavior.serverError())
                .failFor(Duration.ofMinutes(1), Behavior.serverError()).serves("other");
        client.complete(sim.baseUrl("a"), "gpt-4o");

        a.reset();

        assertEquals(0, a.requestCount());
        assertThrows(NoSuchElementException.class, a::lastRequest);
        assertEquals(200, status("a"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a/b", "__sim", "two words", ".."})
    void refusesAccountNamesThatAreNotOnePathSegment(String name) {
        assertThrows(IllegalArgumentException.class, () -> sim.account(name));
    }

    private int status(String account) throws Exception {
        return client.complete(sim.baseUrl(account), "gpt-4o").statusCode();
    }

    private static String content(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response::body);
        return Client.json(response.body()).getJsonArray("choices").getJsonObject(0).getJsonObject("message")
                .getString("content");
    }
}
