package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.impl.balance.Balancer;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.health.HealthListener;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Balancing strategies through the whole engine, over loopback against the simulator: where the
 * traffic of a tier lands, and how failover composes with each strategy. Virtual time and a seeded
 * generator where the test needs repeatable picks; real time where latency is the signal.
 */
class BalancingTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final VirtualTime time = new VirtualTime();
    private FailoverEngine engine;
    private Mode mode = Mode.COMPLETE;

    private static ChatRequest chat(String model) {
        return ChatRequest.of(model, "Say hello.");
    }

    private FailoverEngine start(Map<String, String> props) {
        props.putIfAbsent("baton.defaults.retry-backoff", "10ms");
        engine = EngineFixture.engine(props, time, new Random(20261201L));
        return engine;
    }

    /** Sends {@code n} requests, {@code parallel} at a time, and counts the connection that served each. */
    private static Map<String, Integer> servedBy(FailoverEngine engine, ChatRequest request, int n, int parallel) {
        Map<String, Integer> counts = new HashMap<>();
        for (int sent = 0; sent < n; sent += parallel) {
            List<CompletableFuture<ChatResponse>> batch = new ArrayList<>();
            for (int i = 0; i < Math.min(parallel, n - sent); i++) {
                batch.add(engine.complete(Call.of(request)));
            }
            for (CompletableFuture<ChatResponse> f : batch) {
                counts.merge(f.orTimeout(30, TimeUnit.SECONDS).join().servedBy().connection(), 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void aThreeToOneWeightedTierSplitsFourThousandRequestsWithinThreePointsOfSeventyFiveTwentyFive() {
        Map<String, String> props = connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m weight=3, b/m weight=1");
        props.put("baton.routes.chat.balance", "weighted");
        start(props);

        Map<String, Integer> counts = servedBy(engine, chat("chat"), 4000, 16);

        double a = counts.getOrDefault("a", 0) / 4000.0;
        System.out.printf("weighted 3:1, 4000 requests: a served %.4f%n", a);
        assertEquals(4000, counts.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(Math.abs(a - 0.75) <= 0.03, "a served " + a + " of the traffic: " + counts);
        assertEquals(counts.get("a"), sim.account("a").requestCount(), "every request was sent once");
        assertEquals(counts.get("b"), sim.account("b").requestCount());
        Balancer.Share shareOfA = engine.balancer().shares().stream().filter(s -> s.target().equals("a/m"))
                .findFirst().orElseThrow();
        assertEquals(0.75, shareOfA.share(), 1e-9, "the configured share is what operators see");
    }

    @Test
    void whenTheWeightedPickFailsTheRestOfItsTierFollowsThenTheNextTier() {
        Map<String, String> props = connections(sim.simulator(), "m", "a", "b", "c");
        props.put("baton.routes.chat.targets", "a/m weight=3, b/m | c/m");
        props.put("baton.routes.chat.balance", "weighted");
        props.put("baton.routes.chat.same-target-retries", "0");
        props.put("baton.connections.a.eject-after", "1000");
        props.put("baton.connections.b.eject-after", "1000");
        start(props);

        Map<String, Integer> healthy = servedBy(engine, chat("chat"), 200, 8);
        assertEquals(null, healthy.get("c"), "the second tier takes nothing while the first can serve: " + healthy);
        assertTrue(healthy.get("a") > healthy.get("b"), healthy::toString);

        sim.account("a").setDefault(Behavior.serverError());
        Map<String, Integer> oneDown = servedBy(engine, chat("chat"), 100, 4);
        assertEquals(Map.of("b", 100), oneDown, "a failed pick fails over inside its tier first");

        sim.account("b").setDefault(Behavior.serverError());
        ChatResponse served = engine.complete(Call.of(chat("chat"))).join();
        assertEquals("c", served.servedBy().connection());
        RequestRecord record = engine.findRecord(served.requestId()).orElseThrow();
        List<String> tried = record.attempts().stream().map(AttemptRecord::connection).toList();
        assertEquals("c", tried.get(2), "tier 1 both tried before tier 2: " + tried);
        assertEquals(List.of("a", "b"), tried.subList(0, 2).stream().sorted().toList());
    }

    @Test
    void anAdaptiveTierMovesShareAwayFromATargetWithTwentyPercentErrorsWithinTenSecondsAndBackAfterItRecovers() {
        Map<String, String> props = connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m, b/m");
        props.put("baton.routes.chat.balance", "adaptive");
        props.put("baton.routes.chat.same-target-retries", "0");
        start(props);
        Duration step = Duration.ofMillis(25); // 40 requests a second, on virtual time

        Map<String, Integer> calm = run(400, step);
        assertTrue(share(calm, "b") > 0.4 && share(calm, "b") < 0.6, "two healthy targets share evenly: " + calm);

        // b now fails one request in five (never five in a row, so it is never ejected).
        List<Behavior> flaky = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            flaky.add(i % 5 == 0 ? Behavior.serverError() : Behavior.ok());
        }
        sim.account("b").enqueue(flaky.toArray(Behavior[]::new));
        run(200, step); // the first 5 s of errors
        Map<String, Integer> degraded = run(200, step); // 5 to 10 s after the errors began
        double bShare = shareOf("b/m");
        System.out.printf("adaptive, b at 20%% errors: share %.4f after 10 s; served %s in its last 5 s (calm: %s)%n",
                bShare, degraded, calm);
        assertTrue(bShare < 0.3, "b's share after 10 s of 20% errors: " + bShare);
        assertTrue(share(degraded, "b") < 0.35, "b served less between 5 and 10 s: " + degraded);
        assertTrue(bShare >= 0.05 - 1e-9, "a degraded target keeps the minimum share, so it stays measured: " + bShare);
        assertEquals(200, degraded.values().stream().mapToInt(Integer::intValue).sum(), "every request was served");

        sim.account("b").reset(); // recovered
        run(480, step); // 12 s
        Map<String, Integer> recovered = run(200, step);
        System.out.printf("adaptive, b recovered: share %.4f after 17 s, served %s in the last 5 s%n", shareOf("b/m"),
                recovered);
        assertTrue(shareOf("b/m") > 0.4, "b's share after it recovered: " + shareOf("b/m"));
        assertTrue(share(recovered, "b") > 0.35, "b serves its share again: " + recovered);
    }

    @Test
    void anAdaptiveTierMovesShareAwayFromATargetThreeTimesSlowerWithinTenSecondsAndBackAfterItRecovers() {
        // Latency is the signal here, so this engine runs on real time.
        Map<String, String> props = connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m, b/m");
        props.put("baton.routes.chat.balance", "adaptive");
        engine = EngineFixture.engine(props, Clock.systemUTC(), HealthListener.NONE, EngineObserver.NONE);
        sim.account("a").setDefault(Behavior.ok().afterDelay(Duration.ofMillis(15)));
        sim.account("b").setDefault(Behavior.ok().afterDelay(Duration.ofMillis(15)));
        servedBy(engine, chat("chat"), 100, 2);

        sim.account("b").setDefault(Behavior.ok().afterDelay(Duration.ofMillis(45)));
        long slowFrom = System.nanoTime();
        Duration moved = until(() -> shareOf("b/m") < 0.3, Duration.ofSeconds(10));
        assertTrue(moved != null, "b's share 10 s after it became three times slower: " + shareOf("b/m"));
        // Real picks, not a seeded draw: 200 of them, so that chance alone (a share under 0.3: 60 expected, sd 6.5)
        // stays far from the bound.
        Map<String, Integer> slow = servedBy(engine, chat("chat"), 200, 2);
        assertTrue(share(slow, "b") < 0.42, "the slow target serves less: " + slow);

        sim.account("b").setDefault(Behavior.ok().afterDelay(Duration.ofMillis(15)));
        Duration back = until(() -> shareOf("b/m") > 0.4, Duration.ofSeconds(20));
        assertTrue(back != null, "b's share after it recovered: " + shareOf("b/m"));
        System.out.printf("adaptive latency: share moved away %d ms after b slowed, back %d ms after it recovered%n",
                moved.toMillis(), back.toMillis());
        assertTrue(System.nanoTime() - slowFrom > 0);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aStickyRouteKeepsEachSessionOnOneTargetAndMovesOnlyTheSessionsOfAnEjectedTarget(Mode mode) {
        this.mode = mode;
        Map<String, String> props = connections(sim.simulator(), "m", "a", "b", "c");
        props.put("baton.routes.chat.targets", "a/m, b/m, c/m");
        props.put("baton.routes.chat.balance", "sticky");
        start(props);
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            sessions.add("user-" + i);
        }

        Map<String, String> home = new HashMap<>();
        for (int round = 0; round < 10; round++) {
            for (String session : sessions) {
                String served = stickyCall(session, round);
                String before = home.putIfAbsent(session, served);
                assertEquals(before == null ? served : before, served, session + " moved while its target was healthy");
            }
        }
        assertEquals(3, home.values().stream().distinct().count(), "sessions spread over the tier: " + home);

        String ejected = home.get("user-0");
        engine.health().find(ejected).orElseThrow().eject(Duration.ofMinutes(5), "test");
        Map<String, String> moved = new HashMap<>();
        for (int round = 0; round < 5; round++) {
            for (String session : sessions) {
                String served = stickyCall(session, round);
                if (home.get(session).equals(ejected)) {
                    assertNotEquals(ejected, served);
                    String before = moved.putIfAbsent(session, served);
                    assertEquals(before == null ? served : before, served, session + " must move once, to one target");
                } else {
                    assertEquals(home.get(session), served, session + " was not on the ejected target and stays");
                }
            }
        }

        engine.health().find(ejected).orElseThrow().restore();
        for (String session : sessions) {
            assertEquals(home.get(session), stickyCall(session, 0), session + " goes home once its target is back");
        }
    }

    /** One call of {@code session}, by each of the ways a caller can name it. */
    private String stickyCall(String session, int round) {
        ChatRequest request = switch (round % 3) {
            case 0 -> ChatRequest.builder().model("chat").message("user", "hi").session(session).build();
            case 1 -> ChatRequest.builder().model("chat").message("user", "hi").param("prompt_cache_key", session).build();
            default -> ChatRequest.builder().model("chat").message("user", "hi").param("user", session).build();
        };
        Outcome outcome = mode.call(engine, request);
        assertTrue(outcome.ok(), () -> String.valueOf(outcome.error()));
        return outcome.servedBy().connection();
    }

    @Test
    void leastBusySendsMoreToTheFasterTargetOfASkewedMix() {
        Map<String, String> props = connections(sim.simulator(), "m", "slow", "fast");
        props.put("baton.routes.chat.targets", "slow/m, fast/m");
        props.put("baton.routes.chat.balance", "least-busy");
        engine = EngineFixture.engine(props, Clock.systemUTC(), HealthListener.NONE, EngineObserver.NONE);
        sim.account("slow").setDefault(Behavior.ok().afterDelay(Duration.ofMillis(200)));
        sim.account("fast").setDefault(Behavior.ok().afterDelay(Duration.ofMillis(20)));

        Map<String, Integer> counts = closedLoop(8, Duration.ofSeconds(3));

        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        double fast = share(counts, "fast");
        System.out.printf("least-busy, 8 callers, 200 ms vs 20 ms: %d requests, fast served %.3f%n", total, fast);
        // Equal shares would give the fast target half; in-flight counts give it most of the traffic.
        assertTrue(fast > 0.75, "fast served " + fast + " of " + counts);
        assertTrue(counts.getOrDefault("slow", 0) > 0, "the slow target still takes its turn when the fast one is busy");
        assertEquals(0, engine.balancer().inFlight("slow/m") + engine.balancer().inFlight("fast/m"), "nothing left in flight");
    }

    /** {@code callers} callers, each sending its next request when its last is answered, for {@code length}. */
    private Map<String, Integer> closedLoop(int callers, Duration length) {
        Map<String, Integer> counts = new java.util.concurrent.ConcurrentHashMap<>();
        long end = System.nanoTime() + length.toNanos();
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            loops.add(loop(counts, end));
        }
        loops.forEach(CompletableFuture::join);
        return counts;
    }

    private CompletableFuture<Void> loop(Map<String, Integer> counts, long end) {
        if (System.nanoTime() >= end) {
            return CompletableFuture.completedFuture(null);
        }
        return engine.complete(Call.of(chat("chat"))).thenCompose(r -> {
            counts.merge(r.servedBy().connection(), 1, Integer::sum);
            return loop(counts, end);
        });
    }

    /** Sends {@code n} requests one after another, {@code step} of virtual time apart. */
    private Map<String, Integer> run(int n, Duration step) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            ChatResponse r = engine.complete(Call.of(chat("chat"))).orTimeout(30, TimeUnit.SECONDS).join();
            counts.merge(r.servedBy().connection(), 1, Integer::sum);
            time.advance(step);
        }
        return counts;
    }

    /** Sends requests one after another until {@code done}; how long it took, or {@code null} when it did not happen in time. */
    private Duration until(java.util.function.BooleanSupplier done, Duration limit) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < limit.toNanos()) {
            engine.complete(Call.of(chat("chat"))).orTimeout(30, TimeUnit.SECONDS).join();
            if (done.getAsBoolean()) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
        }
        return null;
    }

    private double shareOf(String target) {
        return engine.balancer().shares().stream().filter(s -> s.target().equals(target)).mapToDouble(Balancer.Share::share)
                .findFirst().orElse(-1);
    }

    private static double share(Map<String, Integer> counts, String connection) {
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        return total == 0 ? 0 : counts.getOrDefault(connection, 0) / (double) total;
    }
}
