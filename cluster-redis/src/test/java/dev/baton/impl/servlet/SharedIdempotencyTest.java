package dev.baton.impl.servlet;

import dev.baton.ChatRequest;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.redis.ClusterNode;
import dev.baton.impl.cluster.redis.RedisProcess;
import dev.baton.impl.concurrent.Await;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Idempotency keys across two nodes sharing Redis, each with its engine and its own connections to
 * Redis, the way the endpoint uses them: claim, run on the engine when told to, settle.
 */
class SharedIdempotencyTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static final Scheduler SCHEDULER = EngineFixture.TIMER;
    private static final SharedIdempotency.Lifetimes LIFETIMES = new SharedIdempotency.Lifetimes(Duration.ofMinutes(5),
            Duration.ofSeconds(30));
    private static final byte[] BODY = GatewayKeys.sha256("{\"model\":\"chat\"}".getBytes(StandardCharsets.UTF_8));
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private ClusterNode[] nodes(String url) throws Exception {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a");
        props.put("baton.routes.chat.targets", "a/m");
        ClusterSettings settings = ClusterNode.settings(url);
        ClusterNode a = ClusterNode.start("A", props, settings);
        ClusterNode b = ClusterNode.start("B", props, settings);
        open.add(a);
        open.add(b);
        return new ClusterNode[] {a, b};
    }

    private static SharedIdempotency keys(ClusterNode node) {
        return new SharedIdempotency(node.sync().store(), node.name(), LIFETIMES, SCHEDULER);
    }

    /**
     * What the endpoint does as the key's owner: run on the engine, settle, answer. Then waits for the store's reply
     * to the write, which the endpoint does not: a store's timeout on a busy machine does not undo the write, and a
     * repeat that comes before the write lands finds the key running and polls until it does.
     */
    private static Answer run(ClusterNode node, SharedIdempotency keys, String key) throws Exception {
        Answer answer = Responses.success(node.engine().complete(Call.of(ChatRequest.of("chat", "Say hello.")))
                .get(5, TimeUnit.SECONDS));
        keys.settle("caller", key, BODY, answer).exceptionally(slow -> null).get(5, TimeUnit.SECONDS);
        return answer;
    }

    private static SharedIdempotency.Outcome claim(SharedIdempotency keys, String key, byte[] body) throws Exception {
        return keys.claim("caller", key, body).get(5, TimeUnit.SECONDS);
    }

    @Test
    void aKeyReplayedThroughNodeBGetsNodeAsAnswerWithOneUpstreamCall() throws Exception {
        ClusterNode[] n = nodes(RedisProcess.SHARED_URL);
        SharedIdempotency onA = keys(n[0]);
        SharedIdempotency onB = keys(n[1]);

        assertEquals(new SharedIdempotency.Run(true), claim(onA, "key-1", BODY));
        Answer first = run(n[0], onA, "key-1");

        SharedIdempotency.Replay replay = assertInstanceOf(SharedIdempotency.Replay.class, claim(onB, "key-1", BODY));
        assertEquals(first.status(), replay.answer().status());
        assertEquals(first.headers(), replay.answer().headers(), "the same request id and served-by headers");
        assertArrayEquals(first.body(), replay.answer().body(), "byte for byte");
        assertEquals(1, sim.account("a").requestCount(), "one upstream call for both");
    }

    @Test
    void aRepeatOnNodeBWhileNodeARunsWaitsForItsAnswer() throws Exception {
        ClusterNode[] n = nodes(RedisProcess.SHARED_URL);
        SharedIdempotency onA = keys(n[0]);
        // B polls on virtual time, held: a poll runs only when the test moves time.
        VirtualTime time = new VirtualTime();
        time.hold();
        SharedIdempotency onB = new SharedIdempotency(n[1].sync().store(), n[1].name(), LIFETIMES, time);

        assertEquals(new SharedIdempotency.Run(true), claim(onA, "key-2", BODY));
        CompletableFuture<SharedIdempotency.Outcome> repeat = onB.claim("caller", "key-2", BODY);
        Await.until("B found A's claim and waits to look again", () -> !time.idle(), Duration.ofSeconds(5));
        time.advance(SharedIdempotency.POLL.multipliedBy(3));
        Await.until("B waits again after three polls", () -> !time.idle(), Duration.ofSeconds(5));
        assertFalse(repeat.isDone(), "B waits while A runs, looking again every poll");
        Answer first = run(n[0], onA, "key-2");
        Await.until("B finds A's answer", () -> {
            time.advance(SharedIdempotency.POLL); // B looks again, and finds A's answer once the write has landed
            return repeat.isDone();
        }, Duration.ofSeconds(5));

        SharedIdempotency.Replay replay = assertInstanceOf(SharedIdempotency.Replay.class,
                repeat.get(1, TimeUnit.SECONDS));
        assertArrayEquals(first.body(), replay.answer().body());
        assertEquals(1, sim.account("a").requestCount());
    }

    @Test
    void anotherCallersSameKeyOnAnotherNodeRunsInsteadOfGettingTheFirstCallersAnswer() throws Exception {
        ClusterNode[] n = nodes(RedisProcess.SHARED_URL);
        SharedIdempotency onA = keys(n[0]);
        SharedIdempotency onB = keys(n[1]);
        assertEquals(new SharedIdempotency.Run(true), onA.claim("key:alice", "shared-key", BODY).get(5, TimeUnit.SECONDS));
        Answer alices = Responses.success(n[0].engine().complete(Call.of(ChatRequest.of("chat", "Say hello.")))
                .get(5, TimeUnit.SECONDS));
        onA.settle("key:alice", "shared-key", BODY, alices).get(5, TimeUnit.SECONDS);

        assertEquals(new SharedIdempotency.Run(true), onB.claim("key:bob", "shared-key", BODY).get(5, TimeUnit.SECONDS),
                "Bob's key of the same name is his own: it runs, and is claimed for him");
        assertInstanceOf(SharedIdempotency.Replay.class, onB.claim("key:alice", "shared-key", BODY)
                .get(5, TimeUnit.SECONDS), "Alice's repeat through node B is still a replay");
    }

    @Test
    void theSameKeyWithAnotherBodyIsAConflictOnAnotherNode() throws Exception {
        ClusterNode[] n = nodes(RedisProcess.SHARED_URL);
        assertEquals(new SharedIdempotency.Run(true), claim(keys(n[0]), "key-3", BODY));
        assertInstanceOf(SharedIdempotency.Conflict.class, claim(keys(n[1]), "key-3", GatewayKeys.sha256("other")));
    }

    @Test
    void anAnswerThatIsNotKeptReleasesTheKeyForARetryOnAnyNode() throws Exception {
        ClusterNode[] n = nodes(RedisProcess.SHARED_URL);
        SharedIdempotency onA = keys(n[0]);
        SharedIdempotency onB = keys(n[1]);
        assertEquals(new SharedIdempotency.Run(true), claim(onA, "key-4", BODY));
        CompletableFuture<SharedIdempotency.Outcome> repeat = onB.claim("caller", "key-4", BODY);
        onA.settle("caller", "key-4", BODY, Responses.refusal(503, "server_error", "upstream_unavailable", null,
                "every target failed", "req_x"));
        assertEquals(new SharedIdempotency.Run(true), repeat.get(1, TimeUnit.SECONDS),
                "B runs it itself once A released the key");
    }

    @Test
    void withRedisFrozenAClaimWaitsNoLongerThanTheTimeoutThenRunsLocally() throws Exception {
        RedisProcess redis = RedisProcess.start();
        open.add(redis);
        ClusterNode[] n = nodes(redis.url());
        SharedIdempotency onA = keys(n[0]);
        assertEquals(new SharedIdempotency.Run(true), claim(onA, "warm", BODY));

        redis.freeze(true);
        long start = System.nanoTime();
        SharedIdempotency.Outcome outcome = claim(onA, "key-5", BODY);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(new SharedIdempotency.Run(false), outcome, "runs on this node's cache alone");
        System.out.printf("claim with Redis frozen: %d ms (timeout 50 ms)%n", tookMs);
        assertTrue(tookMs < 50 + 30, "bounded by the 50 ms timeout (30 ms for the timer's resolution): " + tookMs);

        Await.until("A sees Redis frozen", () -> !n[0].sync().connected(), Duration.ofSeconds(2));
        start = System.nanoTime();
        assertEquals(new SharedIdempotency.Run(false), claim(onA, "key-6", BODY));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 10, "no wait once known disconnected");
    }
}
