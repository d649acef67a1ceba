package dev.baton.impl.engine;

import dev.baton.ChatResponse;
import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.exception.FailoverException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.config.Durations;
import dev.baton.impl.engine.AttemptMode.Failed;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request answered as a whole ({@code complete}/{@code completeAsync}): an attempt is one
 * exchange, and nothing reaches the caller before the loop ends, so it never commits. One instance
 * per request.
 */
final class CompleteMode implements AttemptMode {

    private final CompletableFuture<ChatResponse> result = new CompletableFuture<>();
    private FailoverLoop loop;
    private volatile CompletableFuture<JsonObject> exchange;
    private volatile JsonObject answer;

    /** Runs {@code loop} in this mode; the caller's cancelling the future abandons the request. */
    CompletableFuture<ChatResponse> start(FailoverLoop loop) {
        this.loop = loop;
        result.whenComplete((r, t) -> {
            if (result.isCancelled()) {
                loop.abandon(null);
            }
        });
        loop.start();
        return result;
    }

    @Override
    public void run(Attempt attempt, Duration timeout) {
        AtomicBoolean settled = new AtomicBoolean();
        // Armed before the exchange starts, so that a timeout can never be set after the answer it bounds.
        var timer = loop.later(timeout, () -> {
            if (settled.compareAndSet(false, true)) {
                abort();
                loop.ended(attempt, Failed.beforeCommit(ProviderFailure.transport(FailureKind.TIMEOUT,
                        "no answer within " + Durations.format(timeout))));
            }
        });
        var c = attempt.candidate();
        CompletableFuture<JsonObject> call = loop.exchange().complete(loop.ctx().adapters().get(c.target().provider()),
                c.target(), loop.request().body(), timeout);
        exchange = call;
        if (settled.get()) {
            call.cancel(true); // timed out before it was sent
        }
        call.whenComplete((json, error) -> {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            timer.cancel();
            if (error == null) {
                answer = json;
                loop.ended(attempt, new Served(false, loop.sinceStart(), loop.exchange().usage(json)));
            } else if (!AttemptFailures.isCancellation(error)) {
                loop.ended(attempt, Failed.beforeCommit(AttemptFailures.failure(error).failure()));
            }
        });
    }

    @Override
    public void abort() {
        CompletableFuture<JsonObject> current = exchange;
        if (current != null) {
            current.cancel(true);
        }
    }

    @Override
    public void served(Attempt attempt, Cost cost) {
        result.complete(new ChatResponse(answer, loop.servedBy(attempt.candidate()), loop.id(), null, cost));
    }

    @Override
    public void failed(FailoverException error) {
        result.completeExceptionally(error);
    }

    @Override
    public boolean answersDegraded() {
        return loop.exchange().api() == Api.CHAT; // a made-up text is no Responses answer and no vector
    }

    @Override
    public void degraded(String text, UpstreamFailedException cause) {
        result.complete(DegradedAnswer.of(text, loop.request().model(), cause));
    }
}
