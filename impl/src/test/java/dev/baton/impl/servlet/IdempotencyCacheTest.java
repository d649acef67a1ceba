package dev.baton.impl.servlet;

import dev.baton.impl.health.MutableClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdempotencyCacheTest {

    private static final byte[] BODY = hash("{\"model\":\"demo\"}");
    private static final byte[] OTHER_BODY = hash("{\"model\":\"other\"}");

    private final MutableClock clock = new MutableClock();
    private final IdempotencyCache cache = new IdempotencyCache(Duration.ofHours(1), 3, clock);

    @Test
    void theFirstRequestOwnsTheKeyAndARepeatGetsItsAnswerMarkedAsAReplay() {
        IdempotencyCache.Owner owner = assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY));
        owner.settle(ok("req_1"));

        IdempotencyCache.Attached repeat = assertInstanceOf(IdempotencyCache.Attached.class, cache.claim("key:a", "k1", BODY));
        Answer replayed = repeat.answer().join();
        assertEquals(200, replayed.status());
        assertEquals("req_1", replayed.headers().get("x-request-id"), "the stored answer's own request id");
        assertEquals("true", replayed.headers().get(Answer.REPLAY_HEADER));
        assertEquals("{\"ok\":true}", new String(replayed.body(), StandardCharsets.UTF_8));
    }

    @Test
    void keysAreScopedPerCaller() {
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY)).settle(ok("req_1"));
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:b", "k1", BODY));
    }

    @Test
    void theSameKeyWithAnotherBodyIsAConflict() {
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY)).settle(ok("req_1"));
        assertInstanceOf(IdempotencyCache.Conflict.class, cache.claim("key:a", "k1", OTHER_BODY));
        assertInstanceOf(IdempotencyCache.Conflict.class, cache.claim("key:a", "k1", OTHER_BODY),
                "and the conflict does not replace the stored answer");
        assertInstanceOf(IdempotencyCache.Attached.class, cache.claim("key:a", "k1", BODY));
    }

    @Test
    void aStoredAnswerLivesForTheTtlAfterItWasStored() {
        IdempotencyCache.Owner owner = (IdempotencyCache.Owner) cache.claim("key:a", "k1", BODY);
        clock.advance(Duration.ofMinutes(30)); // a slow request: the TTL counts from the answer
        owner.settle(ok("req_1"));

        clock.advance(Duration.ofMinutes(59));
        assertInstanceOf(IdempotencyCache.Attached.class, cache.claim("key:a", "k1", BODY));
        clock.advance(Duration.ofMinutes(1));
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY), "expired: runs again");
    }

    @Test
    void aRunningRequestNeverExpires() {
        cache.claim("key:a", "k1", BODY);
        clock.advance(Duration.ofHours(5));
        assertInstanceOf(IdempotencyCache.Attached.class, cache.claim("key:a", "k1", BODY));
    }

    @Test
    void expiredEntriesAreDroppedAsNewKeysArrive() {
        ((IdempotencyCache.Owner) cache.claim("key:a", "k1", BODY)).settle(ok("req_1"));
        ((IdempotencyCache.Owner) cache.claim("key:a", "k2", BODY)).settle(ok("req_2"));
        clock.advance(Duration.ofHours(1));

        cache.claim("key:a", "k3", BODY);

        assertEquals(1, cache.size());
    }

    @Test
    void aFailureIsGivenToThoseWaitingAndThenReleasesTheKey() {
        IdempotencyCache.Owner owner = (IdempotencyCache.Owner) cache.claim("key:a", "k1", BODY);
        IdempotencyCache.Attached waiting = (IdempotencyCache.Attached) cache.claim("key:a", "k1", BODY);

        owner.settle(failure(503));

        assertEquals(503, waiting.answer().join().status());
        assertEquals("true", waiting.answer().join().headers().get(Answer.REPLAY_HEADER));
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY), "a retry runs again");
    }

    @Test
    void aDegradedAnswerIsNotKept() {
        IdempotencyCache.Owner owner = (IdempotencyCache.Owner) cache.claim("key:a", "k1", BODY);
        owner.settle(new Answer(200, Map.of("x-request-id", "req_1", "x-baton-degraded", "true"), new byte[0]));
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY));
    }

    @Test
    void theOldestKeyIsEvictedPastTheBound() {
        for (String key : List.of("k1", "k2", "k3", "k4")) {
            ((IdempotencyCache.Owner) cache.claim("key:a", key, BODY)).settle(ok("req_" + key));
        }
        assertEquals(3, cache.size());
        assertInstanceOf(IdempotencyCache.Attached.class, cache.claim("key:a", "k4", BODY));
        assertInstanceOf(IdempotencyCache.Attached.class, cache.claim("key:a", "k2", BODY));
        assertInstanceOf(IdempotencyCache.Owner.class, cache.claim("key:a", "k1", BODY), "k1 was the oldest");
    }

    @Test
    void anEvictedRunningRequestStillAnswersThoseAttachedButIsNotKept() {
        IdempotencyCache.Owner owner = (IdempotencyCache.Owner) cache.claim("key:a", "k1", BODY);
        IdempotencyCache.Attached waiting = (IdempotencyCache.Attached) cache.claim("key:a", "k1", BODY);
        cache.claim("key:a", "k2", BODY);
        cache.claim("key:a", "k3", BODY);
        cache.claim("key:a", "k4", BODY); // evicts k1 while it runs

        owner.settle(ok("req_1"));

        assertEquals(200, waiting.answer().join().status());
        assertEquals(3, cache.size());
    }

    @Test
    void concurrentDuplicatesGetOneOwnerAndEveryoneTheSameAnswer() throws Exception {
        IdempotencyCache big = new IdempotencyCache(Duration.ofHours(1), 10_000, clock);
        int callers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<IdempotencyCache.Claim>> claims = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                claims.add(pool.submit(() -> {
                    start.await();
                    return big.claim("key:a", "same", BODY);
                }));
            }
            start.countDown();
            List<IdempotencyCache.Owner> owners = new ArrayList<>();
            List<CompletableFuture<Answer>> waiting = new ArrayList<>();
            for (Future<IdempotencyCache.Claim> f : claims) {
                IdempotencyCache.Claim c = f.get(5, TimeUnit.SECONDS);
                if (c instanceof IdempotencyCache.Owner o) {
                    owners.add(o);
                } else {
                    waiting.add(((IdempotencyCache.Attached) c).answer());
                }
            }
            assertEquals(1, owners.size(), "exactly one runs");
            assertEquals(callers - 1, waiting.size());
            assertFalse(waiting.stream().anyMatch(CompletableFuture::isDone), "nobody is answered before the owner");

            owners.get(0).settle(ok("req_1"));

            for (CompletableFuture<Answer> w : waiting) {
                Answer a = w.get(5, TimeUnit.SECONDS);
                assertEquals(ok("req_1").replayed(), a);
            }
            assertTrue(waiting.stream().allMatch(CompletableFuture::isDone));
        } finally {
            pool.shutdownNow();
        }
    }

    private static Answer ok(String id) {
        return new Answer(200, Map.of("x-request-id", id, "x-baton-connection", "primary"),
                "{\"ok\":true}".getBytes(StandardCharsets.UTF_8));
    }

    private static Answer failure(int status) {
        return new Answer(status, Map.of("x-request-id", "req_f", "x-should-retry", "true"),
                "{\"error\":{}}".getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hash(String body) {
        return GatewayKeys.sha256(body);
    }
}
