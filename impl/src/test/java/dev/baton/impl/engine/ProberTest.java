package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.impl.concurrent.Await;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.impl.record.RecordQuery;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.testkit.RecordedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Background probes of ejected connections, over real loopback HTTP against the simulator, on
 * virtual time that the test alone moves: it holds time from the start, so each probe runs when the
 * test advances to it, and the test waits (in real time) for each probe's answer before moving on.
 */
class ProberTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final VirtualTime time = new VirtualTime();
    private FailoverEngine engine;

    @BeforeEach
    void holdTime() {
        time.hold(); // never released: an engine left behind must not go on probing by itself
    }

    /** A route "chat" over a and b serving m, background probes with the defaults unless told otherwise. */
    private Map<String, String> route(String... accounts) {
        Map<String, String> props = connections(sim.simulator(), "m", accounts);
        for (String account : accounts) {
            props.remove("baton.connections." + account + ".probe"); // the default: background
        }
        props.put("baton.routes.chat.targets", String.join(",", Arrays.stream(accounts).map(a -> a + "/m").toList()));
        props.put("baton.routes.chat.deadline", "5s");
        props.put("baton.routes.chat.attempt-timeout", "700ms");
        props.put("baton.routes.chat.same-target-retries", "0");
        return props;
    }

    private void start(Map<String, String> props) {
        engine = EngineFixture.engine(props, time);
    }

    private Outcome chat() {
        return Mode.COMPLETE.call(engine, ChatRequest.of("chat", "Say hello."));
    }

    /**
     * Moves virtual time by {@code by}, stopping at a's next probe on the way (so that the probe is
     * answered at the instant it was sent), and waits in real time for each probe it started.
     */
    private void step(Duration by) throws InterruptedException {
        Instant end = time.instant().plus(by);
        Instant probe = engine.health().of("a").nextProbeAt();
        if (probe != null && probe.isBefore(end)) {
            advance(Duration.between(time.instant(), probe).plusMillis(1)); // the prober's extra millisecond
        }
        advance(Duration.between(time.instant(), end));
    }

    /**
     * Advances, then waits until a probe that reached the simulator has its record, which the
     * prober saves after scheduling the next probe.
     */
    private void advance(Duration by) throws InterruptedException {
        int received = sim.account("a").requestCount();
        int recorded = probes("a").size();
        time.advance(by);
        Await.until("a probe answered and recorded", () -> !engine.health().of("a").snapshot().rotation()
                .equals("probing") && (sim.account("a").requestCount() == received || probes("a").size() > recorded),
                Duration.ofSeconds(10));
    }

    private List<RequestRecord> probes(String connection) {
        List<RequestRecord> found = new ArrayList<>(engine.searchRecords(
                new RecordQuery(null, null, connection, null, RecordQuery.MAX_LIMIT, RequestRecord.PROBE)));
        found.sort((x, y) -> x.startedAt().compareTo(y.startedAt()));
        return found;
    }

    @Test
    void aConnectionDownForSixtySecondsIsBackWithinOneProbeIntervalAndNoRequestReachesItWhileEjected()
            throws InterruptedException {
        start(route("a", "b"));
        Instant outageStart = time.instant();
        sim.account("a").setDefault(Behavior.overloaded());

        List<String> requestIds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Outcome o = chat();
            assertEquals("b", o.servedBy().connection());
            requestIds.add(o.requestId());
        }
        assertEquals("ejected", engine.health().of("a").snapshot().rotation());
        int userRequestsToA = sim.account("a").requestCount();
        assertEquals(5, userRequestsToA);

        // A user request every 4 s, as in the issue: none goes to a while it is out.
        Duration intervalAtRecovery = null;
        Instant recovered = null;
        Instant restored = null;
        for (int second = 1; second <= 120 && restored == null; second++) {
            if (recovered == null && !time.instant().isBefore(outageStart.plusSeconds(60))) {
                sim.account("a").setDefault(Behavior.ok());
                recovered = time.instant();
                intervalAtRecovery = engine.health().of("a").snapshot().probeInterval();
            }
            step(Duration.ofSeconds(1));
            if (engine.health().of("a").snapshot().rotation().equals("healthy")) {
                restored = time.instant();
            } else if (second % 4 == 0) {
                Outcome o = chat();
                assertEquals("b", o.servedBy().connection(), "a is still out");
                requestIds.add(o.requestId());
            }
        }

        assertTrue(restored != null, "restored within 2 minutes");
        Duration afterRecovery = Duration.between(recovered, restored);
        assertTrue(afterRecovery.compareTo(intervalAtRecovery.plusSeconds(1)) <= 0,
                "back " + afterRecovery + " after the recovery; the probe interval then was " + intervalAtRecovery);
        List<RequestRecord> probes = probes("a");
        assertTrue(probes.size() >= 3, () -> "probed while out: " + probes);
        assertEquals(userRequestsToA + probes.size(), sim.account("a").requestCount(),
                "every request a saw after its ejection was a probe");
        for (String id : requestIds.subList(5, requestIds.size())) {
            RequestRecord r = engine.findRecord(id).orElseThrow();
            assertTrue(r.attempts().stream().noneMatch(at -> at.connection().equals("a")), r::toString);
            assertEquals(RequestRecord.REQUEST, r.kind());
        }
        RequestRecord last = probes.get(probes.size() - 1);
        assertTrue(last.ok(), last::toString);
        assertEquals("probe", last.kind());
        assertEquals("a", last.servedBy().connection());
        for (RequestRecord failed : probes.subList(0, probes.size() - 1)) {
            assertEquals(FailureKind.SERVER_ERROR, failed.attempts().get(0).kind());
        }

        RecordedRequest probe = sim.account("a").lastRequest();
        assertEquals(1, probe.json().getInt("max_completion_tokens"), "a minimal request");
        assertEquals("m", probe.json().getString("model"));
        List<Prober.Probe> history = engine.probes("a");
        assertEquals(last.id(), history.get(0).id(), "newest first");
        assertTrue(history.get(0).restored());
        assertEquals("ok", history.get(0).outcome());
        assertEquals("server_error", history.get(1).outcome());

        assertEquals("a", chat().servedBy().connection(), "back in rotation for requests");
        assertNull(engine.health().of("a").nextProbeAt());
    }

    @Test
    void anEmbeddingModelIsProbedWithAnEmbeddingsRequest() throws InterruptedException {
        String model = "text-embedding-3-small";
        Map<String, String> props = connections(sim.simulator(), model, "a", "b");
        props.remove("baton.connections.a.probe");
        props.put("baton.connections.a.eject-after", "1");
        props.put("baton.routes.vectors.targets", "a/" + model + ", b/" + model);
        props.put("baton.routes.vectors.same-target-retries", "0");
        start(props);
        sim.account("a").enqueue(Behavior.serverError());

        var body = jakarta.json.Json.createObjectBuilder().add("model", "vectors").add("input", "hello").build();
        var answer = engine.complete(new Call(ChatRequest.fromJson(body), dev.baton.impl.config.PolicyOverride.NONE,
                false, null, Api.EMBEDDINGS)).join();
        assertEquals("b", answer.servedBy().connection());
        assertEquals("ejected", engine.health().of("a").snapshot().rotation());

        step(Duration.ofSeconds(6));

        var probe = sim.account("a").lastRequest();
        assertTrue(probe.path().endsWith("/embeddings"), "a chat request would be refused by an embedding model: "
                + probe.path());
        assertEquals(model, probe.json().getString("model"));
        assertEquals("healthy", engine.health().of("a").snapshot().rotation(), "the probe served: back in rotation");
    }

    @Test
    void aRejectedKeyIsProbedLessAndLessOftenUntilTheMaximumInterval() throws InterruptedException {
        Map<String, String> props = route("a", "b");
        props.put("baton.connections.a.max-probe-interval", "40s");
        start(props);
        sim.account("a").setDefault(Behavior.unauthorized());

        assertEquals("b", chat().servedBy().connection());
        assertEquals("ejected", engine.health().of("a").snapshot().rotation(), "one 401 ejects");
        for (int second = 0; second < 600; second++) {
            step(Duration.ofSeconds(1));
        }

        List<RequestRecord> probes = probes("a");
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < probes.size(); i++) {
            gaps.add(Duration.between(probes.get(i - 1).startedAt(), probes.get(i).startedAt()).toSeconds());
        }
        // 5 s to the first probe, then 10, 20, 40 (the maximum) and 40 s from then on.
        assertEquals(List.of(10L, 20L, 40L), gaps.subList(0, 3));
        assertTrue(gaps.subList(3, gaps.size()).stream().allMatch(g -> g == 40), gaps::toString);
        assertTrue(probes.size() >= 15 && probes.size() <= 17, "in 10 minutes: " + probes.size());
        assertTrue(probes.stream().allMatch(p -> p.attempts().get(0).kind() == FailureKind.CREDENTIAL
                && p.attempts().get(0).httpStatus() == 401));
        assertEquals(Duration.ofSeconds(40), engine.health().of("a").snapshot().probeInterval());
        assertEquals(1 + probes.size(), sim.account("a").requestCount());
        for (RequestRecord p : probes) {
            String message = p.attempts().get(0).message();
            assertFalse(message != null && message.contains(EngineFixture.KEY_PREFIX), "no key in a probe's record");
        }
    }

    @Test
    void aParkedConnectionIsNotProbedBeforeItsRetryAfter() throws InterruptedException {
        start(route("a", "b"));
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(120)));
        assertEquals("b", chat().servedBy().connection());
        assertEquals("parked", engine.health().of("a").snapshot().rotation());

        // An operator takes the parked connection out for a second; its parking still holds probes back.
        engine.health().eject("a", Duration.ofSeconds(1), "test");
        for (int second = 0; second < 119; second++) {
            step(Duration.ofSeconds(1));
        }
        assertEquals(1, sim.account("a").requestCount(), "not probed while parked");
        assertEquals("ejected", engine.health().of("a").snapshot().rotation());

        step(Duration.ofSeconds(2));
        assertEquals(2, sim.account("a").requestCount(), "probed when the Retry-After is over");
        assertEquals("healthy", engine.health().of("a").snapshot().rotation());
    }

    @Test
    void aProbeStaysWithinTheConnectionsRateLimit() throws InterruptedException {
        Map<String, String> props = route("a", "b");
        props.put("baton.connections.a.rate-limit", "1/1h"); // the limiter runs on real time: one permit, spent below
        props.put("baton.connections.a.eject-after", "1");
        start(props);
        sim.account("a").setDefault(Behavior.overloaded());
        assertEquals("b", chat().servedBy().connection());
        assertEquals("ejected", engine.health().of("a").snapshot().rotation());

        step(Duration.ofSeconds(6)); // the first probe is due, but over the local limit: not sent
        assertEquals(1, sim.account("a").requestCount());
        assertEquals("ejected", engine.health().of("a").snapshot().rotation());
        assertTrue(probes("a").isEmpty(), "a probe not sent leaves no record");
        Duration untilNext = Duration.between(time.instant(), engine.health().of("a").nextProbeAt());
        assertTrue(untilNext.compareTo(Duration.ofMinutes(50)) > 0, "the next probe waits for the limit: " + untilNext);
        assertEquals(Duration.ofSeconds(5), engine.health().of("a").snapshot().probeInterval(), "not a failed probe");
    }

    @Test
    void inRequestModeNoProbeIsSentAndTheNextRequestAfterTheCoolOffIsTheProbe() throws InterruptedException {
        Map<String, String> props = route("a", "b");
        props.put("baton.connections.a.probe", "request");
        start(props);
        sim.account("a").setDefault(Behavior.overloaded());
        for (int i = 0; i < 5; i++) {
            chat();
        }
        sim.account("a").setDefault(Behavior.ok());
        for (int second = 0; second < 31; second++) {
            step(Duration.ofSeconds(1));
        }
        assertEquals(5, sim.account("a").requestCount(), "no background probe");
        assertEquals("probe_due", engine.health().of("a").snapshot().rotation());

        Outcome probe = chat();
        assertEquals("a", probe.servedBy().connection(), "the request was the probe");
        AttemptRecord only = engine.findRecord(probe.requestId()).orElseThrow().attempts().get(0);
        assertTrue(only.succeeded());
        assertTrue(probes("a").isEmpty());
    }
}
