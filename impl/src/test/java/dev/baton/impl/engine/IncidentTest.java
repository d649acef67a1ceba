package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller is never held for a recovery: what the engine does during a provider incident, timed by
 * the engine's own record on virtual time (waits pass at once, and count in full).
 */
class IncidentTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final VirtualTime time = new VirtualTime();
    private FailoverEngine engine;


    private FailoverEngine start(Map<String, String> props) {
        props.putIfAbsent("baton.defaults.retry-backoff", "10ms");
        engine = EngineFixture.engine(props, time);
        return engine;
    }

    private RequestRecord record(Outcome outcome) {
        return engine.findRecord(outcome.requestId()).orElseThrow();
    }

    private static ChatRequest chat(String model) {
        return ChatRequest.of(model, "Say hello.");
    }

    /** Route "chat" over a and b (model m) with a 60 s deadline and the default max-wait of 2 s. */
    private static Map<String, String> route(String coolOff) {
        Map<String, String> props = connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m, b/m");
        props.put("baton.connections.a.cool-off", coolOff);
        props.put("baton.connections.b.cool-off", coolOff);
        return props;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aTotalOutageAnswersEveryRequestAtOnceAndNeverWaitsOutACoolOff(Mode mode) {
        start(route("5s"));
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.serverError());

        for (int i = 0; i < 8; i++) {
            Outcome outcome = mode.call(engine, chat("chat"));
            RequestRecord record = record(outcome);
            UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, outcome.error());
            long attemptTime = record.attempts().stream().mapToLong(AttemptRecord::latencyMillis).sum();
            // Beside the attempts, only 10 ms backoffs; an engine that waited out the 5 s cool-off fails here.
            assertTrue(record.latencyMillis() <= attemptTime + 500,
                    "request " + i + " held " + record.latencyMillis() + " ms for " + attemptTime + " ms of attempts");
            assertTrue(error.retryable());
            assertTrue(error.retryAfter().orElseThrow().compareTo(Duration.ofSeconds(1)) >= 0,
                    "every retryable error says when to come back");
        }
        Outcome ejected = mode.call(engine, chat("chat"));
        UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, ejected.error());
        RequestRecord record = record(ejected);
        assertEquals(503, error.httpStatus());
        assertEquals("no_available_provider", error.code());
        assertEquals(List.of(), record.attempts(), "both ejected: nothing is attempted");
        assertEquals(2, record.skipped().size());
        assertTrue(record.skipped().stream().allMatch(s -> s.reason().startsWith("ejected for ")), record.skipped()::toString);
        assertTrue(record.latencyMillis() < 250, "answered at once, not after the cool-off: " + record.latencyMillis());
        Duration retryAfter = error.retryAfter().orElseThrow();
        assertTrue(retryAfter.compareTo(Duration.ofSeconds(5)) <= 0 && retryAfter.compareTo(Duration.ofSeconds(3)) > 0,
                "Retry-After is the earliest cool-off's end: " + retryAfter);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void everyAccountRateLimitedAnswers429WithRetryAfterAtOnce(Mode mode) {
        start(route("30s"));
        sim.account("a").setDefault(Behavior.rateLimited(Duration.ofSeconds(30)));
        sim.account("b").setDefault(Behavior.rateLimited(Duration.ofSeconds(30)));

        Outcome first = mode.call(engine, chat("chat"));
        UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, first.error());
        assertEquals(429, error.httpStatus());
        assertEquals("provider_rate_limited", error.code());
        assertEquals(Duration.ofSeconds(30), error.retryAfter().orElseThrow());
        assertEquals(2, record(first).attempts().size(), "each account once: 30 s is past max-wait");

        Outcome parked = mode.call(engine, chat("chat"));
        error = assertInstanceOf(UpstreamFailedException.class, parked.error());
        RequestRecord record = record(parked);
        assertEquals(429, error.httpStatus());
        assertEquals("provider_rate_limited", error.code());
        assertTrue(error.retryAfter().orElseThrow().compareTo(Duration.ofSeconds(28)) > 0, error.retryAfter()::toString);
        assertEquals(List.of(), record.attempts());
        assertEquals(List.of("a/m", "b/m"), record.skipped().stream().map(SkippedTarget::target).toList());
        assertTrue(record.skipped().stream().allMatch(s -> s.reason().contains("longer than max-wait (2s)")),
                record.skipped()::toString);
        assertTrue(record.latencyMillis() < 250, "answered at once: " + record.latencyMillis());
        assertEquals(2, sim.account("a").requestCount() + sim.account("b").requestCount());
    }

    /** Account a serves model m, account b model n; {@code route}, if given, is route "chat"'s targets. */
    private void startWithTwoModels(String route) {
        Map<String, String> props = connections(sim.simulator(), "m", "a");
        props.putAll(connections(sim.simulator(), "n", "b"));
        if (route != null) {
            props.put("baton.routes.chat.targets", route);
        }
        start(props);
    }

    private static ChatRequest mWithFallbackN(Mode mode) {
        return ChatRequest.builder().model("m").message("user", "Say hello.").fallbacks("n")
                .stream(mode == Mode.STREAM).build();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aShortRetryAfterOnTheRequestedModelIsWaitedForBeforeAFallbackModel(Mode mode) {
        startWithTwoModels(null);
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(2)));

        Outcome outcome = mode.call(engine, mWithFallbackN(mode));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("m", outcome.servedBy().model(), "no downgrade for a 2 s wait");
        assertEquals(0, sim.account("b").requestCount());
        List<AttemptRecord> attempts = record(outcome).attempts();
        assertEquals(FailureKind.RATE_LIMIT, attempts.get(0).kind());
        Duration waited = Duration.between(attempts.get(0).startedAt(), attempts.get(1).startedAt());
        assertTrue(waited.compareTo(Duration.ofMillis(1_950)) >= 0, "waited out the Retry-After: " + waited);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRouteWaitsForItsParkedPrimaryModelBeforeATargetWithAnotherModel(Mode mode) {
        startWithTwoModels("a/m, b/n");
        // Parked by an earlier request's 429: this one finds it parked and waits instead of downgrading.
        engine.health().of("a").failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(1), "m");

        Outcome outcome = mode.call(engine, chat("chat"));

        assertEquals("m", outcome.servedBy().model());
        assertEquals(0, sim.account("b").requestCount(), "never downgraded");
        RequestRecord record = record(outcome);
        Duration waited = Duration.between(record.startedAt(), record.attempts().get(0).startedAt());
        assertTrue(waited.compareTo(Duration.ofMillis(900)) >= 0, "waited for the parking to end: " + waited);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRetryAfterPastMaxWaitGoesStraightToTheFallbackModel(Mode mode) {
        startWithTwoModels(null);
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(5)));

        Outcome outcome = mode.call(engine, mWithFallbackN(mode));

        assertEquals("n", outcome.servedBy().model());
        assertTrue(record(outcome).latencyMillis() < 1_000, "no wait: " + record(outcome).latencyMillis());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anotherAccountOfTheSameModelIsTriedAtOnceRatherThanWaitedFor(Mode mode) {
        Map<String, String> props = connections(sim.simulator(), "m", "a", "c");
        props.putAll(connections(sim.simulator(), "n", "b"));
        props.put("baton.routes.chat.targets", "a/m, b/n, c/m");
        start(props);
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(1)));

        Outcome outcome = mode.call(engine, chat("chat"));

        assertEquals("c", outcome.servedBy().connection(), "same model on another account, before the downgrade");
        assertTrue(record(outcome).latencyMillis() < 900, "no wait: " + record(outcome).latencyMillis());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void maxWaitZeroNeverWaits(Mode mode) {
        Map<String, String> props = connections(sim.simulator(), "m", "a");
        props.put("baton.routes.chat.targets", "a/m");
        props.put("baton.routes.chat.max-wait", "0s");
        start(props);
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(1)));

        Outcome limited = mode.call(engine, chat("chat"));
        assertEquals(429, limited.error().httpStatus());
        assertEquals(1, record(limited).attempts().size(), "a 1 s Retry-After is past a max-wait of 0");
    }
}
