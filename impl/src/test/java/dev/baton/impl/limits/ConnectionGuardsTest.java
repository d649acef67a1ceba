package dev.baton.impl.limits;

import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.ConnectionLimits;
import dev.baton.impl.config.HealthPolicy;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionGuardsTest {

    private static ConnectionConfig connection(String name, ConnectionLimits limits) {
        return new ConnectionConfig(name, "openai", URI.create("http://127.0.0.1:1/v1"), "", List.of("m"), Map.of(),
                HealthPolicy.DEFAULT, List.of(), Map.of(), Map.of(), limits);
    }

    @Test
    void aConnectionWithoutLimitsRunsEveryAttempt() {
        ConnectionGuards guards = new ConnectionGuards(List.of(connection("a", ConnectionLimits.NONE)));
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            assertNull(guards.tryStart("a", runs::incrementAndGet, new CompletableFuture<>()));
        }
        assertEquals(100, runs.get());
    }

    @Test
    void theBulkheadRefusesAtOnceAndHoldsThePermitUntilTheAttemptEnds() {
        ConnectionGuards guards = new ConnectionGuards(List.of(connection("a", new ConnectionLimits(2, 0, null))));
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Void> first = new CompletableFuture<>();
        assertNull(guards.tryStart("a", runs::incrementAndGet, first));
        assertNull(guards.tryStart("a", runs::incrementAndGet, new CompletableFuture<>()));
        ConnectionGuards.Refusal refused = guards.tryStart("a", runs::incrementAndGet, new CompletableFuture<>());
        assertNotNull(refused);
        assertEquals("at its limit of 2 concurrent requests", refused.reason());
        assertNotNull(guards.tryStart("a", runs::incrementAndGet, new CompletableFuture<>()), "the queue is never waited in");
        assertEquals(2, runs.get(), "a refused attempt never runs, not even later");
        first.complete(null);
        assertNull(guards.tryStart("a", runs::incrementAndGet, new CompletableFuture<>()));
        assertEquals(3, runs.get());
    }

    @Test
    void theRateLimitSpreadsStartsEvenlyAndSaysWhenToComeBack() {
        ConnectionGuards guards = new ConnectionGuards(List.of(connection("a",
                new ConnectionLimits(0, 60, Duration.ofMinutes(1)))));
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        assertNull(guards.tryStart("a", runs::incrementAndGet, done));
        ConnectionGuards.Refusal refused = guards.tryStart("a", runs::incrementAndGet, done);
        assertNotNull(refused, "60 per minute is one per second: a second start at once is refused");
        assertTrue(refused.reason().startsWith("over its local rate limit of 60 per 60s"), refused.reason());
        assertTrue(refused.retryAfter().compareTo(Duration.ofSeconds(1)) <= 0, refused.retryAfter().toString());
        assertEquals(1, runs.get());
    }
}
