package dev.baton.impl.limits;

import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.ConnectionLimits;
import dev.baton.impl.config.Durations;
import io.smallrye.faulttolerance.api.RateLimitException;
import io.smallrye.faulttolerance.api.RateLimitType;
import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.util.TypeLiteral;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local limits of every connection ({@link ConnectionLimits}), as SmallRye Fault Tolerance
 * guards: a bulkhead for concurrent requests and a smooth rate limit for request starts. A
 * request over a limit is refused at once, never queued: the engine moves on to the next target,
 * which is what a failover chain is for. Thread-safe.
 *
 * <p>The guards hold a bulkhead permit for as long as the attempt's {@code done} stage is
 * incomplete, so a stream keeps its permit until it ends.
 */
public final class ConnectionGuards {

    private static final TypeLiteral<CompletionStage<Void>> STAGE = new TypeLiteral<>() {
    };

    private static final int PENDING = 0;
    private static final int STARTED = 1;
    private static final int GAVE_UP = 2;

    private final Map<String, Guarded> guards = new HashMap<>();

    private record Guarded(TypedGuard<CompletionStage<Void>> guard, ConnectionLimits limits) {
    }

    public ConnectionGuards(List<ConnectionConfig> connections) {
        for (ConnectionConfig c : connections) {
            if (c.limits().any()) {
                guards.put(c.name(), new Guarded(build(c.name(), c.limits()), c.limits()));
            }
        }
    }

    /** Why an attempt was not let through: the reason for the record, and when to come back, if known. */
    public record Refusal(String reason, Duration retryAfter) {
    }

    /**
     * Starts an attempt under the connection's limits. {@code attempt} is run on this thread when
     * the limits allow it and returns a stage that completes when the attempt has ended.
     *
     * @return {@code null} when the attempt was started, else why not
     */
    public Refusal tryStart(String connection, Runnable attempt, CompletionStage<Void> done) {
        Guarded guarded = guards.get(connection);
        if (guarded == null) {
            attempt.run();
            return null;
        }
        AtomicInteger state = new AtomicInteger(PENDING);
        CompletionStage<Void> outcome;
        try {
            outcome = guarded.guard().get(() -> {
                if (!state.compareAndSet(PENDING, STARTED)) {
                    return CompletableFuture.completedFuture(null); // given up on while queued: release at once
                }
                attempt.run();
                return done;
            });
        } catch (RuntimeException e) {
            outcome = CompletableFuture.failedFuture(e);
        }
        if (!state.compareAndSet(PENDING, GAVE_UP)) {
            return null; // started, here or (rarely) already by the thread that freed a permit
        }
        Throwable cause = outcome.toCompletableFuture().handle((v, e) -> e).getNow(null);
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        ConnectionLimits limits = guarded.limits();
        if (cause instanceof RateLimitException r) {
            return new Refusal("over its local rate limit of " + limits.ratePermits() + " per "
                    + Durations.format(limits.rateWindow()), Duration.ofMillis(Math.max(r.getRetryAfterMillis(), 1)));
        }
        if (cause instanceof BulkheadException || cause == null) { // null: queued, which counts as full
            return new Refusal("at its limit of " + limits.maxConcurrent() + " concurrent requests", null);
        }
        return new Refusal("its local limits refused it: " + cause.getClass().getSimpleName(), null);
    }

    private static TypedGuard<CompletionStage<Void>> build(String name, ConnectionLimits limits) {
        TypedGuard.Builder<CompletionStage<Void>> builder = TypedGuard.create(STAGE)
                .withDescription("baton connection " + name)
                .withThreadOffload(false); // the attempt only starts a non-blocking exchange
        if (limits.maxConcurrent() > 0) {
            // SmallRye's asynchronous bulkhead needs a queue of at least one. Baton never waits in it (the
            // next target is a better use of the deadline): a queued attempt is given up on at once, and
            // when its turn comes it releases the permit without running.
            builder = builder.withBulkhead().limit(limits.maxConcurrent()).queueSize(1).done();
        }
        if (limits.ratePermits() > 0) {
            builder = builder.withRateLimit().limit(limits.ratePermits())
                    .window(limits.rateWindow().toMillis(), ChronoUnit.MILLIS)
                    .type(RateLimitType.SMOOTH).done();
        }
        return builder.build();
    }
}
