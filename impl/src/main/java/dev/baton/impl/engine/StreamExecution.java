package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.impl.config.Durations;
import dev.baton.impl.http.HttpExchange;
import dev.baton.impl.http.OpenAiShape;
import dev.baton.impl.http.Transport;
import dev.baton.record.RequestRecord;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A streamed request: a publisher that fails over until the commit point and relays one target's
 * chunks after it.
 *
 * <p>Chunks before the first output chunk are held back. The first output chunk commits the
 * stream: the held chunks and it go downstream, and from then on a failure ends the stream with
 * {@link StreamInterruptedException}. Downstream demand is honoured with a drain loop; after the
 * commit point the upstream is asked for one chunk at a time, only when the last one was taken,
 * so a slow reader slows the provider instead of filling memory.
 *
 * <p>One instance per request and one subscriber.
 */
final class StreamExecution extends Execution implements Flow.Publisher<ChatChunk>, Flow.Subscription {

    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final Queue<ChatChunk> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong demand = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private volatile Flow.Subscriber<? super ChatChunk> downstream;
    private volatile Throwable terminalError;
    private volatile boolean terminalComplete;
    private volatile boolean terminated;
    private volatile boolean cancelled;
    private volatile StreamAttempt current;

    StreamExecution(EngineContext ctx, ChatRequest request, Resolution resolution, String id) {
        super(ctx, request, resolution, id);
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ChatChunk> subscriber) {
        if (!subscribed.compareAndSet(false, true)) {
            HttpExchange.<ChatChunk>failed(new IllegalStateException("a Baton stream accepts one subscriber"))
                    .subscribe(subscriber);
            return;
        }
        downstream = subscriber;
        subscriber.onSubscribe(this);
        if (!cancelled) {
            next();
        }
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            cancel();
            terminalError = new IllegalArgumentException("request(" + n + "): demand must be positive (rule 3.9)");
            drain();
            return;
        }
        demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
        drain();
    }

    @Override
    public void cancel() {
        if (cancelled) {
            return;
        }
        cancelled = true;
        terminated = true;
        StreamAttempt attempt = current;
        boolean committed = attempt != null && attempt.committed;
        abandon(committed ? attempt.servedBy : null, committed ? attempt.firstTokenMillis : null);
        if (attempt != null) {
            attempt.abort();
        }
    }

    @Override
    void runAttempt(Candidate c, int retry, Duration timeout) {
        Duration beforeCommit = min(timeout, resolution.policy().firstTokenTimeout());
        StreamAttempt attempt = new StreamAttempt(c, retry, beforeCommit);
        current = attempt;
        adapter(c).stream(c.target(), request.body(), beforeCommit).subscribe(attempt);
    }

    /** A stream's caller already handles an error event; a made-up stream would pass for a model's. */
    @Override
    boolean answersDegraded() {
        return false;
    }

    @Override
    void deliverFailure(FailoverException failure) {
        terminalError = failure;
        drain();
    }

    /** Emits queued chunks while there is demand, then the terminal signal once the queue is empty. */
    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        do {
            Flow.Subscriber<? super ChatChunk> s = downstream;
            while (s != null && !terminated && demand.get() > 0) {
                ChatChunk chunk = queue.poll();
                if (chunk == null) {
                    break;
                }
                demand.decrementAndGet();
                s.onNext(chunk);
            }
            if (s != null && !terminated && queue.isEmpty()) {
                if (terminalError != null) {
                    terminated = true;
                    s.onError(terminalError);
                } else if (terminalComplete) {
                    terminated = true;
                    s.onComplete();
                } else if (demand.get() > 0 && current != null) {
                    current.pull();
                }
            }
        } while (wip.decrementAndGet() != 0);
    }

    /** One upstream stream; it holds back metadata until the first output chunk. */
    private final class StreamAttempt implements Flow.Subscriber<JsonObject> {

        private final Candidate candidate;
        private final int retry;
        private final Duration firstTokenTimeout;
        private final Instant started = ctx.clock().instant();
        private final long startNanos = System.nanoTime();
        private final List<JsonObject> held = new ArrayList<>();
        private final AtomicBoolean outstanding = new AtomicBoolean();
        private volatile Flow.Subscription upstream;
        private volatile long lastEventNanos = System.nanoTime();
        private volatile boolean committed;
        private volatile boolean sawFinish;
        private volatile JsonObject usage;
        private volatile Long firstTokenMillis;
        private long committedNanos;
        private boolean ended;
        private ScheduledFuture<?> timer;
        private volatile ServedBy servedBy;

        StreamAttempt(Candidate candidate, int retry, Duration firstTokenTimeout) {
            this.candidate = candidate;
            this.retry = retry;
            this.firstTokenTimeout = firstTokenTimeout;
            synchronized (this) {
                timer = later(firstTokenTimeout, this::firstTokenTimedOut);
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            if (isEnded()) {
                subscription.cancel();
                return;
            }
            outstanding.set(true);
            subscription.request(1);
        }

        /** Asks upstream for the next chunk when none is outstanding (after the commit point). */
        void pull() {
            Flow.Subscription s = upstream;
            if (committed && s != null && !isEnded() && outstanding.compareAndSet(false, true)) {
                s.request(1);
            }
        }

        @Override
        public void onNext(JsonObject json) {
            outstanding.set(false);
            List<JsonObject> release = null;
            synchronized (this) {
                if (ended) {
                    return;
                }
                lastEventNanos = System.nanoTime();
                if (OpenAiShape.finishReason(json) != null) {
                    sawFinish = true;
                }
                JsonObject u = OpenAiShape.usage(json);
                if (u != null) {
                    usage = u;
                }
                if (!committed && OpenAiShape.hasOutput(json)) {
                    committed = true; // the commit point
                    committedNanos = lastEventNanos;
                    firstTokenMillis = sinceStart();
                    servedBy = servedBy(candidate);
                    timer.cancel(false);
                    timer = later(resolution.policy().streamIdleTimeout(), this::idleCheck);
                    release = new ArrayList<>(held);
                    held.clear();
                }
            }
            if (!committed) {
                held.add(json);
                outstanding.set(true);
                upstream.request(1);
                return;
            }
            if (release != null) {
                release.forEach(this::emit);
            }
            emit(json);
        }

        private void emit(JsonObject json) {
            queue.offer(new ChatChunk(json, servedBy, id));
            drain();
        }

        @Override
        public void onError(Throwable throwable) {
            ProviderFailure failure = Transport.failure(throwable).failure();
            if (end()) {
                failed(failure, committed ? "stream_interrupted" : null);
            }
        }

        @Override
        public void onComplete() {
            if (!end()) {
                return;
            }
            if (!committed) {
                // A complete answer with no output at all (an empty completion) is still an answer.
                servedBy = servedBy(candidate);
                firstTokenMillis = sinceStart();
                held.forEach(this::emit);
            }
            succeeded(candidate, retry, started, startNanos, true, firstTokenMillis, usage);
            terminalComplete = true;
            drain();
        }

        private void firstTokenTimedOut() {
            if (!committed && end()) {
                abort();
                failed(ProviderFailure.transport(FailureKind.TIMEOUT,
                        "no output within " + Durations.format(firstTokenTimeout)), null);
            }
        }

        /** Re-arms itself for the rest of the idle window; one timer per window, not per chunk. */
        private void idleCheck() {
            long now = System.nanoTime();
            Duration idle = resolution.policy().streamIdleTimeout();
            long silentFor = now - lastEventNanos;
            boolean tooLong = now - committedNanos > ctx.config().maxStreamDuration().toNanos();
            if (silentFor < idle.toNanos() && !tooLong) {
                synchronized (this) {
                    if (!ended) {
                        timer = later(idle.minusNanos(silentFor), this::idleCheck);
                    }
                }
                return;
            }
            if (!end()) {
                return;
            }
            abort();
            if (sawFinish && !tooLong) {
                // The answer was finished; only the end marker never came.
                succeeded(candidate, retry, started, startNanos, true, firstTokenMillis, usage);
                terminalComplete = true;
                drain();
            } else {
                failed(ProviderFailure.transport(FailureKind.TIMEOUT, tooLong
                        ? "the stream ran longer than " + Durations.format(ctx.config().maxStreamDuration())
                        : "no event for " + Durations.format(idle)), "stream_idle_timeout");
            }
        }

        private void failed(ProviderFailure failure, String codeAfterCommit) {
            if (!committed) {
                attemptFailed(candidate, retry, started, startNanos, failure, false);
                return;
            }
            RequestRecord record = brokenAfterCommit(candidate, retry, started, startNanos, failure,
                    codeAfterCommit, firstTokenMillis);
            terminalError = StreamInterruptedException.of(ctx.redactor().clean("The stream from " + candidate.name()
                    + " broke after output had been sent: " + failure.message()), codeAfterCommit, record);
            drain();
        }

        /** Cancels the upstream exchange (a caller went away, or a timer fired). */
        void abort() {
            synchronized (this) {
                ended = true;
                if (timer != null) {
                    timer.cancel(false);
                }
            }
            Flow.Subscription s = upstream;
            if (s != null) {
                s.cancel();
            }
        }

        private synchronized boolean end() {
            if (ended) {
                return false;
            }
            ended = true;
            if (timer != null) {
                timer.cancel(false);
            }
            return true;
        }

        private synchronized boolean isEnded() {
            return ended;
        }
    }
}
