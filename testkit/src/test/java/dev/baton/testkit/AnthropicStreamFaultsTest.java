package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The stream modifiers on the Anthropic wire: every named event counts, message_start and ping included. */
class AnthropicStreamFaultsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    void cutAfterOneDeliversOnlyMessageStart() throws Exception {
        sim.account("a").enqueue(Behavior.ok().cutAfter(1));

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            Client.Drained drained = sse.drain();

            assertEquals(List.of("message_start"), drained.names());
            assertNotNull(drained.failure(), "an unterminated chunked body must fail the read");
        }
    }

    @Test
    void stallAfterGoesQuietAfterThePing() throws Exception {
        sim.account("a").enqueue(Behavior.ok().stallAfter(3));

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            sse.next();
            sse.next();
            assertEquals("ping", Client.json(sse.next()).getString("type"));
            assertTrue(sse.quietFor(Duration.ofMillis(200)));
        }

        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(5)));
    }

    @Test
    void malformedEventAfterInsertsANamedEventWhoseDataIsNotJson() throws Exception {
        sim.account("a").enqueue(Behavior.ok().malformedEventAfter(3));

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            Client.Drained drained = sse.drain();

            assertEquals(10, drained.named().size(), drained.names()::toString);
            assertEquals("content_block_delta", drained.names().get(3));
            assertThrows(jakarta.json.JsonException.class, () -> Client.json(drained.events().get(3)));
            assertEquals("Hello", Client.json(drained.events().get(4)).getJsonObject("delta").getString("text"));
            assertEquals("message_stop", drained.names().get(9));
        }
    }

    @Test
    void streamErrorAfterSendsAnErrorEventAndEnds() throws Exception {
        sim.account("a").enqueue(Behavior.ok().streamErrorAfter(4, "overloaded_error", null, "Overloaded"));

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            assertEquals(List.of("message_start", "content_block_start", "ping", "content_block_delta", "error"),
                    drained.names());
            JsonObject error = Client.json(drained.events().get(4));
            assertEquals("error", error.getString("type"));
            assertEquals("overloaded_error", error.getJsonObject("error").getString("type"));
            assertEquals("Overloaded", error.getJsonObject("error").getString("message"));
            assertFalse(error.getJsonObject("error").containsKey("details"));
        }
    }

    @Test
    void withoutDoneOmitsMessageStopButSendsTheStopReason() throws Exception {
        sim.account("a").enqueue(Behavior.ok().withoutDone());

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            List<String> names = drained.names();
            assertEquals("message_delta", names.get(names.size() - 1));
            assertFalse(names.contains("message_stop"));
        }
    }

    @Test
    void firstTokenDelayHoldsTheFirstDeltaWhileTheOpeningEventsGoOutAtOnce() throws Exception {
        sim.account("a").enqueue(Behavior.ok().firstTokenDelay(Duration.ofMillis(300))
                .eventInterval(Duration.ofMillis(20)));

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            long started = System.nanoTime();
            sse.next();
            sse.next();
            sse.next();
            long pingAt = System.nanoTime();
            sse.next();
            long firstDeltaAt = System.nanoTime();

            assertTrue(pingAt - started < Duration.ofMillis(250).toNanos());
            assertTrue(firstDeltaAt - pingAt >= Duration.ofMillis(250).toNanos());
        }
    }
}
