package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailureAction;
import dev.baton.FailureKind;
import dev.baton.exception.UpstreamUnavailableException;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.wire.OpenAiShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-connection limits (SmallRye guards), degraded answers and policy fallbacks, over loopback HTTP. */
class LimitsAndDegradedTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final VirtualTime clock = new VirtualTime();
    private FailoverEngine engine;


    private Map<String, String> route(String... accounts) {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", accounts);
        props.put("baton.routes.chat.targets", String.join(",", List.of(accounts).stream().map(a -> a + "/m").toList()));
        props.put("baton.routes.chat.retry-backoff", "1ms");
        return props;
    }

    private static void awaitFirstRequest(String account) throws InterruptedException {
        assertTrue(sim.account(account).awaitRequests(1, Duration.ofSeconds(5)), "no request reached " + account);
    }

    @Test
    void aConnectionAtItsConcurrencyLimitIsSkippedAndItsHealthUntouched() throws Exception {
        Map<String, String> props = route("a", "b");
        props.put("baton.connections.a.max-concurrent", "1");
        engine = EngineFixture.engine(props, clock);
        sim.account("a").enqueue(Behavior.reply("slow").afterDelay(Duration.ofMillis(800)));

        CompletableFuture<ChatResponse> first = engine.complete(Call.of(ChatRequest.of("chat", "one")));
        awaitFirstRequest("a");
        ChatResponse second = engine.complete(Call.of(ChatRequest.of("chat", "two"))).get(5, TimeUnit.SECONDS);

        assertEquals("standby_a", second.servedBy().position());
        assertEquals(1, sim.account("a").requestCount(), "the second request never reached a");
        RequestRecord record = engine.findRecord(second.requestId()).orElseThrow();
        assertEquals("at its limit of 1 concurrent requests", record.skipped().get(0).reason());
        assertEquals("slow", first.get(5, TimeUnit.SECONDS).content());
        assertTrue(engine.health().of("a").availability("m").usableNow(), "a local limit never ejects");

        ChatResponse third = engine.complete(Call.of(ChatRequest.of("chat", "three"))).get(5, TimeUnit.SECONDS);
        assertEquals("primary", third.servedBy().position(), "the permit came back when the answer did");
    }

    @Test
    void aStreamHoldsItsPermitUntilItEnds() throws Exception {
        Map<String, String> props = route("a", "b");
        props.put("baton.connections.a.max-concurrent", "1");
        engine = EngineFixture.engine(props, clock);
        sim.account("a").enqueue(Behavior.reply("one two three four").eventInterval(Duration.ofMillis(250)));

        EngineFixture.Call streaming = EngineFixture.Mode.STREAM.start(engine, ChatRequest.of("chat", "stream"));
        streaming.awaitFirstChunk(); // the stream is committed and still running
        ChatResponse during = engine.complete(Call.of(ChatRequest.of("chat", "during"))).get(5, TimeUnit.SECONDS);
        EngineFixture.Outcome[] streamed = {streaming.outcome()};

        assertEquals("standby_a", during.servedBy().position());
        assertTrue(streamed[0].ok(), () -> "stream failed: " + streamed[0].error());
        assertEquals("primary", engine.complete(Call.of(ChatRequest.of("chat", "after"))).get(5, TimeUnit.SECONDS)
                .servedBy().position());
    }

    @Test
    void aConnectionOverItsRateLimitIsSkippedAnd429sWhenNothingElseIsLeft() throws Exception {
        Map<String, String> props = route("a");
        props.put("baton.connections.a.rate-limit", "2/1m");
        engine = EngineFixture.engine(props, clock);

        engine.complete(Call.of(ChatRequest.of("chat", "one"))).get(5, TimeUnit.SECONDS);
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> engine.complete(Call.of(ChatRequest.of("chat", "two"))).get(5, TimeUnit.SECONDS));

        UpstreamUnavailableException e = assertInstanceOf(UpstreamUnavailableException.class, refused.getCause());
        assertEquals(429, e.httpStatus(), "2 per minute, spread evenly: the second comes too soon");
        assertTrue(e.retryAfter().orElseThrow().compareTo(Duration.ofSeconds(30)) <= 0, e.retryAfter().toString());
        assertTrue(e.getMessage().contains("over its local rate limit of 2 per 60s"), e.getMessage());
        assertEquals(1, sim.account("a").requestCount());
    }

    @Test
    void aRouteWithADegradedTextAnswersItWhenEveryTargetFails() throws Exception {
        Map<String, String> props = route("a", "b");
        props.put("baton.routes.chat.degraded", "Drafting is temporarily unavailable.");
        engine = EngineFixture.engine(props, clock);
        sim.account("a").setDefault(Behavior.overloaded());
        sim.account("b").setDefault(Behavior.serverError());

        ChatResponse answer = engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS);

        assertTrue(answer.degraded());
        assertEquals("Drafting is temporarily unavailable.", answer.content());
        assertEquals("chat", answer.body().getString("model"));
        assertTrue(answer.toJson().getBoolean("degraded"));
        RequestRecord record = engine.findRecord(answer.requestId()).orElseThrow();
        assertEquals("degraded", record.status());
        assertFalse(record.ok());
        assertEquals(4, record.attempts().size(), "every target was tried first");
    }

    @Test
    void aDegradedTextNeverHidesARefusalOrAStreamFailure() {
        Map<String, String> props = route("a");
        props.put("baton.routes.chat.degraded", "unavailable");
        engine = EngineFixture.engine(props, clock);
        sim.account("a").setDefault(Behavior.contentPolicyViolation());
        ExecutionException moderated = assertThrows(ExecutionException.class,
                () -> engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(5, TimeUnit.SECONDS));
        assertEquals(403, ((dev.baton.exception.FailoverException) moderated.getCause()).httpStatus());

        sim.account("a").reset().setDefault(Behavior.serverError());
        EngineFixture.Outcome streamed = EngineFixture.Mode.STREAM.call(engine, ChatRequest.of("chat", "hi"));
        assertInstanceOf(UpstreamUnavailableException.class, streamed.error(), "a stream gets the error event");
        assertTrue(streamed.chunks().stream().noneMatch(c -> OpenAiShape.hasOutput(c.body())));
    }

    @Test
    void aPolicysFallbacksFollowTheRoutesTargets() throws Exception {
        Map<String, String> props = route("a");
        props.putAll(EngineFixture.connections(sim.simulator(), "other", "c"));
        engine = EngineFixture.engine(props, clock);
        sim.account("a").setDefault(Behavior.serverError());
        PolicyOverride policy = new PolicyOverride(null, null, null, null, 0, null, null, null,
                Map.of(FailureKind.SERVER_ERROR, FailureAction.FAILOVER), List.of("other"), null, "test");

        ChatResponse answer = engine.complete(new Call(ChatRequest.of("chat", "hi"), policy, false, null)).get(5, TimeUnit.SECONDS);

        assertEquals("other", answer.servedBy().model());
        assertEquals("standby_a", answer.servedBy().position());
        assertEquals(1, sim.account("a").requestCount(), "sameTargetRetries 0 from the policy");
    }
}
