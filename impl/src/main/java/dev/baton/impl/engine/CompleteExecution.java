package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailureKind;
import dev.baton.exception.FailoverException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.config.Durations;
import dev.baton.impl.http.OpenAiShape;
import dev.baton.impl.http.Transport;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** A request answered as a whole ({@code complete}/{@code completeAsync}). One instance per request. */
final class CompleteExecution extends Execution {

    private final CompletableFuture<ChatResponse> result = new CompletableFuture<>();
    private volatile CompletableFuture<JsonObject> call;

    CompleteExecution(EngineContext ctx, ChatRequest request, Resolution resolution, String id) {
        super(ctx, request, resolution, id);
        // A caller that cancels its future cancels the attempt in flight.
        result.whenComplete((r, t) -> {
            if (result.isCancelled()) {
                abandon(null, null);
                CompletableFuture<JsonObject> current = call;
                if (current != null) {
                    current.cancel(true);
                }
            }
        });
    }

    CompletableFuture<ChatResponse> start() {
        next();
        return result;
    }

    @Override
    void runAttempt(Candidate c, int retry, Duration timeout) {
        Instant started = ctx.clock().instant();
        long startNanos = System.nanoTime();
        AtomicBoolean settled = new AtomicBoolean();
        CompletableFuture<JsonObject> attempt = adapter(c).complete(c.target(), request.body(), timeout);
        call = attempt;
        ScheduledFuture<?> timer = later(timeout, () -> {
            if (settled.compareAndSet(false, true)) {
                attempt.cancel(true);
                attemptFailed(c, retry, started, startNanos, ProviderFailure.transport(FailureKind.TIMEOUT,
                        "no answer within " + Durations.format(timeout)), false);
            }
        });
        attempt.whenComplete((json, error) -> {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            timer.cancel(false);
            if (finished()) {
                return;
            }
            if (error == null) {
                succeeded(c, retry, started, startNanos, false, sinceStart(), OpenAiShape.usage(json));
                result.complete(new ChatResponse(json, servedBy(c), id));
            } else if (!Transport.isCancellation(error)) {
                attemptFailed(c, retry, started, startNanos, Transport.failure(error).failure(), false);
            }
        });
    }

    @Override
    void deliverFailure(FailoverException failure) {
        result.completeExceptionally(failure);
    }

    @Override
    boolean answersDegraded() {
        return true;
    }

    @Override
    void deliverDegraded(String text, UpstreamFailedException cause) {
        result.complete(ChatResponse.degraded(text, request.model(), cause));
    }
}
