package dev.baton.impl.cluster.redis;

import dev.baton.impl.concurrent.Await;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.health.Availability;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.baton.impl.concurrent.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redis killed, frozen and restarted under two serving nodes: a redis-server of the test's own on a
 * free port. Redis is never needed to serve: every request is answered, none waits for Redis, each
 * node reports itself disconnected, and re-syncs when Redis is back.
 */
class RedisOutageTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private RedisProcess redis;
    private ClusterNode a;
    private ClusterNode b;

    @BeforeEach
    void start() throws Exception {
        redis = RedisProcess.start();
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m,b/m");
        props.put("baton.routes.chat.same-target-retries", "0");
        ClusterSettings settings = ClusterNode.settings(redis.url());
        a = ClusterNode.start("A", props, settings);
        b = ClusterNode.start("B", props, settings);
        assertTrue(a.sync().connected() && b.sync().connected(), "both nodes connected");
        serve(20, () -> { }); // warm: connections to the simulator open, code compiled
    }

    @AfterEach
    void stop() throws Exception {
        a.close();
        b.close();
        redis.close();
    }

    /** Serves {@code count} requests alternately on both nodes, each served by a; returns their latencies in ms. */
    private Latencies serve(int count, Runnable midway) throws Exception {
        long[] millis = new long[count];
        for (int i = 0; i < count; i++) {
            if (i == count / 2) {
                midway.run();
            }
            ClusterNode node = i % 2 == 0 ? a : b;
            long start = System.nanoTime();
            ChatResponse answer = node.engine().complete(Call.of(ChatRequest.of("chat", "hi"))).get(5, TimeUnit.SECONDS);
            millis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals("a", answer.servedBy().connection());
        }
        java.util.Arrays.sort(millis);
        return new Latencies(millis[count / 2], millis[count - 1]);
    }

    /**
     * Whether requests waited for Redis. A request that waited for a Redis command would wait its whole 50 ms
     * timeout, so the median would rise by 50 ms; 25 ms of slack leaves room for this busy machine's noise, which
     * single requests (the maximum, printed) show more of.
     */
    private static void assertNoWait(Latencies before, Latencies after, String when) {
        System.out.printf("requests with Redis up: median %d ms, max %d ms; %s: median %d ms, max %d ms%n",
                before.median(), before.max(), when, after.median(), after.max());
        assertTrue(after.median() <= before.median() + 25, "no request waited for Redis " + when + ": median "
                + before.median() + " ms before, " + after.median() + " ms " + when);
        assertTrue(after.max() < 1000, "every request answered promptly " + when + ": " + after.max() + " ms");
    }

    private record Latencies(long median, long max) {
    }

    @Test
    void redisKilledMidRunThenRestartedEveryRequestServedAndTheNodesResync() throws Exception {
        Latencies before = serve(40, () -> { });
        Latencies during = serve(40, () -> {
            try {
                redis.kill();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        until("both nodes see Redis gone (baton.cluster.connected 0)",
                () -> !a.sync().connected() && !b.sync().connected(), Duration.ofSeconds(2));
        Latencies down = serve(40, () -> { });
        assertNoWait(before, during, "while Redis was killed");
        assertNoWait(before, down, "while Redis was down");

        // While apart, A learns alone that a is rate limited: B does not hear of it.
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(30)));
        assertEquals("b", a.engine().complete(Call.of(ChatRequest.of("chat", "hi"))).get(5, TimeUnit.SECONDS)
                .servedBy().connection());
        Thread.sleep(100); // what must not happen, B hearing of it with Redis gone, leaves nothing to wait for
        assertEquals(Availability.State.AVAILABLE, b.engine().health().of("a").availability("m").state());

        redis.restart(); // empty, as a fresh replica would be
        until("both nodes reconnect", () -> a.sync().connected() && b.sync().connected(), Duration.ofSeconds(5));
        until("B learns at the re-sync what A learned while apart",
                () -> b.engine().health().of("a").availability("m").state() == Availability.State.PARKED,
                Duration.ofSeconds(1));
        assertTrue(a.sync().view().lastResync() != null);

        // And the channel works again: a change on B reaches A.
        b.engine().health().eject("b", Duration.ofMinutes(1), "after the outage");
        until("A learns B's change after the restart",
                () -> "ejected".equals(a.engine().health().of("b").snapshot().state()), Duration.ofMillis(200));
    }

    @Test
    void aFrozenRedisNeverHoldsARequestAndIsReportedDisconnected() throws Exception {
        Latencies before = serve(40, () -> { });
        Latencies frozen = serve(40, () -> {
            try {
                redis.freeze(true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // Changes made while Redis does not answer are written asynchronously and time out without a caller waiting.
        long start = System.nanoTime();
        a.engine().health().eject("b", Duration.ofMinutes(1), "while frozen");
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 50, "an ejection does not wait for Redis");
        until("the heartbeat notices a Redis that does not answer",
                () -> !a.sync().connected() && !b.sync().connected(), Duration.ofSeconds(2));
        assertNoWait(before, frozen, "while Redis was frozen");
        assertFalse(b.engine().health().of("b").snapshot().state().equals("ejected"), "B did not hear of it");

        redis.freeze(false);
        until("both nodes see Redis back", () -> a.sync().connected() && b.sync().connected(), Duration.ofSeconds(3));
        until("B learns at the re-sync the ejection A made while Redis was frozen",
                () -> "ejected".equals(b.engine().health().of("b").snapshot().state()), Duration.ofSeconds(1));
    }
}
