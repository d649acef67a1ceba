package dev.baton.impl.cluster.redis;

import dev.baton.impl.concurrent.Await;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.impl.cluster.ClusterChange;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.cluster.Staleness;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.health.Availability;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Engines in one JVM sharing connection states through the real Redis on 127.0.0.1:6379, each with
 * its own Lettuce connections, as separate servers would. Every test has a key prefix of its own.
 */
class ClusterSyncTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final List<ClusterNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        nodes.forEach(ClusterNode::close);
    }

    /** Route "chat" over a then b (model m); request-mode probing unless a test asks for background probes. */
    private static Map<String, String> route() {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m,b/m");
        props.put("baton.routes.chat.deadline", "5s");
        props.put("baton.routes.chat.same-target-retries", "0");
        props.put("baton.routes.chat.retry-backoff", "1ms");
        return props;
    }

    private List<ClusterNode> cluster(Map<String, String> props, String... names) throws InterruptedException {
        ClusterSettings settings = ClusterNode.settings(RedisProcess.SHARED_URL);
        for (String name : names) {
            nodes.add(ClusterNode.start(name, props, settings));
        }
        nodes.forEach(n -> assertTrue(n.sync().connected(), n.name() + " connected to Redis"));
        return nodes;
    }

    private static ChatResponse chat(ClusterNode node) throws Exception {
        return node.engine().complete(Call.of(ChatRequest.of("chat", "Say hello."))).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aRateLimitOnNodeAKeepsNodeBOffThatAccountWithin200Ms() throws Exception {
        List<ClusterNode> c = cluster(route(), "A", "B");
        ClusterNode a = c.get(0);
        ClusterNode b = c.get(1);
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(20)));

        assertEquals("b", chat(a).servedBy().connection(), "A's request goes on to b after a's 429");
        long tookMs = Await.until("node B learns that a is parked",
                () -> b.engine().health().of("a").availability("m").state() == Availability.State.PARKED,
                Duration.ofMillis(200));

        for (int i = 0; i < 10; i++) {
            assertEquals("b", chat(b).servedBy().connection(), "B keeps off a during its Retry-After");
        }
        assertEquals(1, sim.account("a").requestCount(), "a was asked once, by A");
        assertEquals(a.engine().health().of("a").snapshot().parkedUntil().toEpochMilli(),
                b.engine().health().of("a").snapshot().parkedUntil().toEpochMilli(), "the same Retry-After on both");
        ClusterSync.View view = b.sync().view();
        ClusterChange learned = view.changes().get(0);
        assertEquals("A", learned.node());
        assertEquals("parked", learned.event());
        System.out.printf("429 shared: B parked a %d ms after A's answer (B's lag %d ms)%n", tookMs,
                view.staleness().max());
    }

    @Test
    void aNodeStartedLaterLearnsTheCurrentStatesWhenItConnects() throws Exception {
        ClusterSettings settings = ClusterNode.settings(RedisProcess.SHARED_URL);
        ClusterNode a = ClusterNode.start("A", route(), settings);
        nodes.add(a);
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(20)));
        assertEquals("b", chat(a).servedBy().connection());
        a.engine().health().eject("b", Duration.ofMinutes(1), "maintenance");
        Await.until("A's two changes stored in Redis",
                () -> a.sync().store().shared().exceptionally(slow -> Map.of()).join().keySet()
                .containsAll(Set.of("a", "b")), Duration.ofSeconds(1));

        ClusterNode late = ClusterNode.start("late", route(), settings);
        nodes.add(late);
        Await.until("the new node adopts the stored states at its first connection",
                () -> late.engine().health().of("a").availability("m").state() == Availability.State.PARKED
                && "ejected".equals(late.engine().health().of("b").snapshot().state()), Duration.ofMillis(500));
        assertEquals(0, late.sync().view().staleness().learned(), "old states are not counted as staleness");
    }

    @Test
    void anOperatorsEjectionAndRestorationReachEveryNode() throws Exception {
        List<ClusterNode> c = cluster(route(), "A", "B", "C");
        c.get(0).engine().health().eject("a", Duration.ofMinutes(5), "provider maintenance");
        for (ClusterNode n : c.subList(1, 3)) {
            Await.until(n.name() + " learns the operator's ejection",
                    () -> "ejected".equals(n.engine().health().of("a").snapshot().state()), Duration.ofMillis(200));
            assertEquals("operator", n.engine().health().of("a").snapshot().ejectedBy());
            assertEquals("provider maintenance", n.engine().health().of("a").snapshot().ejectReason());
        }
        assertEquals("b", chat(c.get(2)).servedBy().connection());

        c.get(1).engine().health().restore("a");
        for (ClusterNode n : List.of(c.get(0), c.get(2))) {
            Await.until(n.name() + " learns the restoration made on B",
                    () -> "healthy".equals(n.engine().health().of("a").snapshot().state()), Duration.ofMillis(200));
        }
        assertEquals("a", chat(c.get(0)).servedBy().connection());
        assertEquals(1, sim.account("a").requestCount(), "a served only after its restoration");
    }

    @Test
    void exactlyOneNodeProbesAfterTheCoolOff() throws Exception {
        Map<String, String> props = route();
        props.remove("baton.connections.a.probe"); // background probes, the default
        props.put("baton.connections.a.eject-after", "1");
        props.put("baton.connections.a.probe-interval", "300ms");
        List<ClusterNode> c = cluster(props, "A", "B", "C");
        sim.account("a").enqueue(Behavior.serverError());

        assertEquals("b", chat(c.get(0)).servedBy().connection(), "A's request fails over after a's 500");
        for (ClusterNode n : c) {
            Await.until(n.name() + " knows a is ejected",
                    () -> "ejected".equals(n.engine().health().of("a").snapshot().state()), Duration.ofMillis(200));
        }
        for (ClusterNode n : c) {
            Await.until(n.name() + " sees a back after one node's probe",
                    () -> "healthy".equals(n.engine().health().of("a").snapshot().state()), Duration.ofSeconds(3));
        }
        // What must not happen, a second node probing too, leaves nothing to wait for: allow it a tenth of the lease.
        Thread.sleep(c.get(0).sync().ttl().toMillis() / 10);
        assertEquals(2, sim.account("a").requestCount(), "the failed request and one probe, cluster-wide");
        long probers = c.stream().filter(n -> !n.engine().probes("a").isEmpty()).count();
        assertEquals(1, probers, "one node sent the probe");
    }

    @Test
    void aFailedProbeMovesTheNextProbeOnEveryNodeAndStillOnlyOneNodeProbesEachRound() throws Exception {
        Map<String, String> props = route();
        props.remove("baton.connections.a.probe");
        props.put("baton.connections.a.eject-after", "1");
        props.put("baton.connections.a.probe-interval", "200ms");
        props.put("baton.connections.a.max-probe-interval", "400ms");
        List<ClusterNode> c = cluster(props, "A", "B");
        sim.account("a").enqueue(Behavior.serverError(), Behavior.serverError(), Behavior.serverError());

        assertEquals("b", chat(c.get(1)).servedBy().connection());
        for (ClusterNode n : c) {
            Await.until(n.name() + " sees a back after two failed probes and a good one",
                    () -> "healthy".equals(n.engine().health().of("a").snapshot().state()), Duration.ofSeconds(5));
        }
        Thread.sleep(500); // what must not happen, a second probe in a round, leaves nothing to wait for
        assertEquals(4, sim.account("a").requestCount(), "one request and three probes: one per round, cluster-wide");
        int probes = c.stream().mapToInt(n -> n.engine().probes("a").size()).sum();
        assertEquals(3, probes);
    }

    /** Staleness on this machine: operator changes on A, each timed until B has adopted it. */
    @Test
    void stalenessIsMeasuredOnEveryLearnedChange() throws Exception {
        List<ClusterNode> c = cluster(route(), "A", "B");
        ClusterNode a = c.get(0);
        ClusterNode b = c.get(1);
        // A change B reads in its start-up re-sync (from the store, untimed) is not counted as learned: start after it.
        Await.until("B re-synced on connecting", () -> b.sync().view().lastResync() != null, Duration.ofSeconds(5));
        Instant resynced = b.sync().view().lastResync();
        int rounds = 200;
        for (int i = 0; i < rounds; i++) {
            boolean eject = i % 2 == 0;
            if (eject) {
                a.engine().health().eject("a", Duration.ofMinutes(1), "round " + i);
            } else {
                a.engine().health().restore("a");
            }
            String expected = eject ? "ejected" : "healthy";
            Await.until("B adopts change " + i, () -> expected.equals(b.engine().health().of("a").snapshot().state()), Duration.ofMillis(200));
        }
        Staleness.Figures figures = b.sync().view().staleness();
        // A heartbeat B missed on a loaded machine makes it re-sync when it answers again. A re-sync may read A's
        // newest change from the store before that change's message arrives: the change is adopted, its message then
        // ignored as old news, and it is not timed. One change per re-sync (a second would need a second missed
        // heartbeat within these few seconds); any other shortfall is a lost change.
        boolean resyncedMeanwhile = !resynced.equals(b.sync().view().lastResync());
        assertTrue(figures.learned() == rounds || resyncedMeanwhile && figures.learned() == rounds - 1,
                figures.learned() + " of " + rounds + " changes timed" + (resyncedMeanwhile ? ", B re-synced" : ""));
        assertTrue(figures.p99() < 200, "99% of changes within 200 ms: " + figures);
        System.out.printf("staleness over %d changes: p50 %d ms, p99 %d ms, max %d ms%n", rounds, figures.p50(),
                figures.p99(), figures.max());
    }
}
