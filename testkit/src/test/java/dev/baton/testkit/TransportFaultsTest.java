package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TransportFaultsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    void afterDelayHoldsBackTheStatusLine() throws Exception {
        sim.account("a").enqueue(Behavior.ok().afterDelay(Duration.ofMillis(300)));

        long started = System.nanoTime();
        assertEquals(200, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode());

        assertTrue(System.nanoTime() - started >= Duration.ofMillis(280).toNanos());
    }

    @Test
    void noResponseRunsTheClientIntoItsTimeoutAndNoticesItHangingUp() throws Exception {
        sim.account("a").enqueue(Behavior.noResponse());

        assertThrows(HttpTimeoutException.class, () -> client.send(
                Client.chat(sim.baseUrl("a"), Client.chatBody("gpt-4o", false, false))
                        .timeout(Duration.ofMillis(300)).build()));

        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(5)));
    }

    @Test
    void resetBeforeHeadersFailsTheClientWithAnIoException() throws Exception {
        sim.account("a").enqueue(Behavior.resetBeforeHeaders());

        IOException failure = assertThrows(IOException.class, () -> client.complete(sim.baseUrl("a"), "gpt-4o"));

        assertFalse(failure instanceof HttpTimeoutException);
        assertEquals(1, sim.account("a").requestCount());
        assertFalse(sim.account("a").lastRequest().clientDisconnected());
    }

    @Test
    void cutAfterTwoDeliversTheRoleChunkAndOneWordThenDropsTheConnection() throws Exception {
        sim.account("a").enqueue(Behavior.ok().cutAfter(2));

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            Client.Drained drained = sse.drain();

            assertEquals(2, drained.events().size(), drained.events()::toString);
            assertEquals("Hello", delta(drained.events().get(1)).getString("content"));
            assertNotNull(drained.failure(), "an unterminated chunked body must fail the read");
        }
    }

    @Test
    void stallAfterGoesQuietAndHoldsTheConnectionUntilTheClientLeaves() throws Exception {
        sim.account("a").enqueue(Behavior.ok().stallAfter(2));

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            sse.next();
            sse.next();
            assertTrue(sse.quietFor(Duration.ofMillis(300)));
            assertFalse(sim.account("a").lastRequest().clientDisconnected());
        }

        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(5)));
    }

    @Test
    void malformedEventAfterInsertsOneLineThatIsNotJsonAndCarriesOn() throws Exception {
        sim.account("a").enqueue(Behavior.reply("one two").malformedEventAfter(2));

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            List<String> events = sse.drain().events();

            assertEquals(6, events.size(), events::toString);
            assertThrows(jakarta.json.JsonException.class, () -> Client.json(events.get(2)));
            assertEquals(" two", delta(events.get(3)).getString("content"));
            assertEquals("[DONE]", events.get(5));
        }
    }

    @Test
    void streamErrorAfterSendsAnErrorEventAndEndsTheStreamWithoutDone() throws Exception {
        sim.account("a").enqueue(Behavior.ok().streamErrorAfter(2, "server_error", null, "The server had an error."));

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            assertEquals(3, drained.events().size(), drained.events()::toString);
            JsonObject error = Client.json(drained.events().get(2)).getJsonObject("error");
            assertEquals("server_error", error.getString("type"));
            assertTrue(error.isNull("code"));
        }
    }

    @Test
    void withoutDoneFinishesTheStreamButNeverSaysDone() throws Exception {
        sim.account("a").enqueue(Behavior.ok().withoutDone());

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            List<String> events = drained.events();
            assertEquals(5, events.size(), events::toString);
            assertEquals("stop", Client.json(events.get(4)).getJsonArray("choices").getJsonObject(0)
                    .getString("finish_reason"));
        }
    }

    @Test
    void firstTokenDelayHoldsTheFirstWordWhileTheRoleChunkGoesOutAtOnce() throws Exception {
        sim.account("a").enqueue(Behavior.ok().firstTokenDelay(Duration.ofMillis(300))
                .eventInterval(Duration.ofMillis(50)));

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            sse.next();
            long roleAt = System.nanoTime();
            sse.next();
            long firstWordAt = System.nanoTime();
            sse.next();
            long secondWordAt = System.nanoTime();

            assertTrue(firstWordAt - roleAt >= Duration.ofMillis(250).toNanos());
            assertTrue(secondWordAt - firstWordAt >= Duration.ofMillis(30).toNanos());
            assertTrue(secondWordAt - firstWordAt < Duration.ofMillis(250).toNanos());
        }
    }

    @Test
    void closeEndsStalledConnectionsAndEveryThreadTheSimulatorStarted() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        ProviderSimulator own = ProviderSimulator.start();
        own.account("a").enqueue(Behavior.ok().stallAfter(1));
        Client.Sse sse = client.stream(own.baseUrl("a"), "gpt-4o", false);
        sse.next();
        Set<Thread> started = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.getName().startsWith("baton-sim-"))
                .collect(Collectors.toSet());

        own.close();

        assertFalse(started.isEmpty());
        started.forEach(t -> assertTrue(t.isDaemon(), t::getName));
        for (Thread thread : started) {
            thread.join(2000);
            assertFalse(thread.isAlive(), thread::getName);
        }
        Client.Drained drained = sse.drain();
        assertTrue(drained.events().isEmpty());
        assertInstanceOf(IOException.class, drained.failure());
    }

    private static JsonObject delta(String event) {
        return Client.json(event).getJsonArray("choices").getJsonObject(0).getJsonObject("delta");
    }
}
