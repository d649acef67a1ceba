package dev.baton.impl.engine;

import dev.baton.impl.concurrent.Publishers;
import dev.baton.ChatChunk;
import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.config.Durations;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A streamed request: a publisher that fails over until the commit point and relays one target's
 * chunks after it. An attempt is one upstream stream; it commits at its first output chunk.
 *
 * <p>Chunks before the first output chunk are held back. The first output chunk commits the
 * stream: the held chunks and it go downstream, and from then on a failure ends the stream with
 * {@link StreamInterruptedException}. Until the held chunks are taken, downstream demand is honoured
 * with a queue and a drain loop; then the stream goes <em>direct</em>: the subscriber's requests go
 * straight to the provider's stream and its chunks straight to the subscriber, with no queue between
 * (the provider's stream honours demand exactly, so a slow reader slows the provider instead of
 * filling memory). The drain loop's counter still keeps a chunk and the end from being signalled at
 * once.
 *
 * <p>One instance per request and one subscriber.
 */
final class StreamMode implements AttemptMode, Flow.Publisher<ChatChunk>, Flow.Subscription {

    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final Queue<ChatChunk> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong demand = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private volatile Flow.Subscriber<? super ChatChunk> downstream;
    private volatile Throwable terminalError;
    private volatile boolean terminalComplete;
    private volatile boolean terminated;
    private volatile boolean cancelled;
    /** Committed and the held chunks taken: demand and chunks bypass the queue. */
    private volatile boolean direct;
    private volatile StreamAttempt current;
    private FailoverLoop loop;

    /** Runs {@code loop} in this mode once a subscriber comes. */
    StreamMode bind(FailoverLoop loop) {
        this.loop = loop;
        return this;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ChatChunk> subscriber) {
        if (!subscribed.compareAndSet(false, true)) {
            Publishers.<ChatChunk>failed(new IllegalStateException("a Baton stream accepts one subscriber"))
                    .subscribe(subscriber);
            return;
        }
        downstream = subscriber;
        subscriber.onSubscribe(this);
        if (!cancelled) {
            loop.start();
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
        if (direct) {
            current.request(n);
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
        loop.abandon(attempt != null && attempt.committed ? attempt.firstTokenMillis : null);
    }

    @Override
    public void run(Attempt attempt, Duration timeout) {
        Duration firstToken = loop.policy().firstTokenTimeout();
        Duration beforeCommit = timeout.compareTo(firstToken) <= 0 ? timeout : firstToken;
        // The timer is armed (in the constructor) before the exchange starts.
        StreamAttempt upstream = new StreamAttempt(attempt, beforeCommit);
        current = upstream;
        var target = attempt.candidate().target();
        Flow.Publisher<JsonObject> events;
        try {
            events = loop.exchange().stream(loop.ctx().adapters().get(target.provider()), target,
                    loop.request().body(), beforeCommit);
        } catch (RuntimeException e) {
            events = Publishers.failed(e); // an adapter's bug fails the attempt, not the request's thread
        }
        events.subscribe(upstream);
    }

    @Override
    public void abort() {
        StreamAttempt attempt = current;
        if (attempt != null) {
            attempt.abort();
        }
    }

    @Override
    public void served(Attempt attempt, Cost cost) {
        terminalComplete = true;
        drain();
    }

    @Override
    public void failed(FailoverException error) {
        terminalError = error;
        drain();
    }

    /** A stream's caller already handles an error event; a made-up stream would pass for a model's. */
    @Override
    public boolean answersDegraded() {
        return false;
    }

    @Override
    public void degraded(String text, UpstreamFailedException cause) {
        throw new UnsupportedOperationException("a stream is never answered with a degraded text");
    }

    /** Emits queued chunks while there is demand (direct: all), then the terminal signal once the queue is empty. */
    private void drain() {
        if (wip.getAndIncrement() == 0) {
            drainLoop();
        }
    }

    /** The drain loop, run by whoever moved its counter from zero, until nothing more came while it ran. */
    private void drainLoop() {
        do {
            Flow.Subscriber<? super ChatChunk> s = downstream;
            // Direct, the queue holds only chunks already asked for (see relay); before, they wait for demand.
            while (s != null && !terminated && (direct || demand.get() > 0)) {
                ChatChunk chunk = queue.poll();
                if (chunk == null) {
                    break;
                }
                if (!direct) {
                    demand.decrementAndGet();
                }
                s.onNext(chunk);
            }
            if (s != null && !terminated && queue.isEmpty()) {
                if (terminalError != null) {
                    terminated = true;
                    s.onError(terminalError);
                } else if (terminalComplete) {
                    terminated = true;
                    s.onComplete();
                } else if (current != null && current.committed) {
                    // What the subscriber asked for and was not given from the queue goes to the provider's stream,
                    // and so does whatever it asks for from now on.
                    direct = true;
                    long n = demand.getAndSet(0);
                    if (n > 0) {
                        current.request(n);
                    }
                }
            }
        } while (wip.decrementAndGet() != 0);
    }

    /**
     * A chunk in direct mode, asked for by the subscriber. It goes out at once unless the drain loop is running (the
     * end being signalled, a chunk queued before, or demand asked for during the switch to direct being handed on):
     * then it is queued, and the loop takes it without counting demand for it. Counting it as demand would let the
     * loop hand that unit to the provider as well, were it queued just after the loop found the queue empty: the
     * chunk would then wait for demand that never comes.
     */
    private void relay(ChatChunk chunk) {
        if (wip.get() == 0 && wip.compareAndSet(0, 1)) {
            if (!terminated) {
                downstream.onNext(chunk);
            }
            if (wip.decrementAndGet() != 0) {
                drainLoop(); // what came meanwhile
            }
        } else {
            queue.offer(chunk);
            drain();
        }
    }

    private long nanos() {
        return loop.ctx().ticker().nanos();
    }

    /** One upstream stream; it holds back metadata until the first output chunk. */
    private final class StreamAttempt implements Flow.Subscriber<JsonObject> {

        private final Attempt attempt;
        private final Duration firstTokenTimeout;
        private final long firstTokenDueNanos;
        private final List<JsonObject> held = new ArrayList<>();
        private volatile Flow.Subscription upstream;
        /**
         * Written for each chunk with an opaque store, no fence: the idle check on the timer's thread needs to see it
         * soon, not in order with anything else.
         */
        private final AtomicLong lastEventNanos = new AtomicLong(nanos());
        private volatile boolean committed;
        private volatile boolean sawFinish;
        private volatile JsonObject usage;
        private volatile Long firstTokenMillis;
        private long committedNanos;
        /** Set under the lock, with the timer; read without it by each chunk after the commit point. */
        private volatile boolean ended;
        private Scheduler.Scheduled timer;
        private volatile ServedBy servedBy;

        StreamAttempt(Attempt attempt, Duration firstTokenTimeout) {
            this.attempt = attempt;
            this.firstTokenTimeout = firstTokenTimeout;
            this.firstTokenDueNanos = nanos() + firstTokenTimeout.toNanos();
            synchronized (this) {
                timer = loop.later(firstTokenTimeout, this::firstTokenDue);
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            if (ended) {
                subscription.cancel();
                return;
            }
            subscription.request(1);
        }

        /** In direct mode: the subscriber's demand, handed to the provider's stream. */
        void request(long n) {
            if (!ended) {
                upstream.request(n);
            }
        }

        @Override
        public void onNext(JsonObject json) {
            if (committed) {
                // After the commit point no lock: only this thread reads the attempt's chunks, and an end by a timer
                // meanwhile is seen at the next chunk (before, the chunk was emitted outside the lock all the same).
                if (ended) {
                    return;
                }
                lastEventNanos.setOpaque(nanos());
                JsonObject relayed = inspect(json);
                if (relayed == null) {
                    upstream.request(1); // in place of the chunk kept from the caller
                } else if (direct) {
                    relay(new ChatChunk(relayed, servedBy, loop.id()));
                } else {
                    emit(List.of(relayed)); // not met: nothing is asked of the provider before the stream goes direct
                }
                return;
            }
            List<JsonObject> release = null;
            JsonObject relayed;
            synchronized (this) {
                if (ended) {
                    return;
                }
                long now = nanos();
                lastEventNanos.setOpaque(now);
                relayed = inspect(json);
                if (relayed != null && loop.exchange().hasOutput(relayed)) {
                    committedNanos = now; // before the volatile write that publishes it to the first-token timer
                    committed = true; // the commit point
                    firstTokenMillis = loop.sinceStart();
                    servedBy = loop.servedBy(attempt.candidate());
                    // The first-token timer, when it fires, looks at the idle window instead; it is replaced only
                    // when the window would end first. One timer fewer for nearly every stream.
                    Duration idle = loop.policy().streamIdleTimeout();
                    if (firstTokenDueNanos - committedNanos > idle.toNanos()) {
                        timer.cancel();
                        timer = loop.later(idle, this::idleCheck);
                    }
                    release = new ArrayList<>(held);
                    held.clear();
                }
            }
            if (release == null) {
                if (relayed != null) {
                    held.add(relayed);
                }
                upstream.request(1);
                return;
            }
            release.add(relayed);
            emit(release);
        }

        /**
         * Notes what a chunk says (a finish, the usage) and returns it as it goes on: the usage chunk (there when the
         * caller asked for it) with the cost estimate in it, as a whole answer has it; {@code null} for a usage chunk
         * that a budget asked for and the caller did not, which is charged and kept from the caller.
         */
        private JsonObject inspect(JsonObject json) {
            Exchange exchange = loop.exchange();
            if (exchange.finishes(json)) {
                sawFinish = true;
            }
            JsonObject u = exchange.usage(json);
            if (u == null) {
                return json;
            }
            usage = u;
            JsonObject priced = exchange.withCost(json, loop.costOf(attempt.candidate(), u));
            return loop.hidesUsage() && exchange.isUsageOnly(priced) ? null : priced;
        }

        /**
         * Queues chunks and drains. All of them are queued first: the loop goes direct once it finds the queue empty,
         * and a chunk queued after that would be overtaken.
         */
        private void emit(List<JsonObject> chunks) {
            for (JsonObject json : chunks) {
                queue.offer(new ChatChunk(json, servedBy, loop.id()));
            }
            drain();
        }

        @Override
        public void onError(Throwable throwable) {
            ProviderFailure failure = AttemptFailures.failure(throwable).failure();
            if (end()) {
                failed(failure, "stream_interrupted");
            }
        }

        @Override
        public void onComplete() {
            if (!end()) {
                return;
            }
            if (!committed) {
                // A complete answer with no output at all (an empty completion) is still an answer.
                servedBy = loop.servedBy(attempt.candidate());
                firstTokenMillis = loop.sinceStart();
                emit(held);
            }
            loop.ended(attempt, new Served(true, firstTokenMillis, usage));
        }

        /** No output by the first-token deadline fails the attempt; past the commit point it checks the idle window. */
        private void firstTokenDue() {
            if (committed) {
                idleCheck();
            } else if (end()) {
                abort();
                failed(ProviderFailure.transport(FailureKind.TIMEOUT,
                        "no output within " + Durations.format(firstTokenTimeout)), null);
            }
        }

        /** Re-arms itself for the rest of the idle window; one timer per window, not per chunk. */
        private void idleCheck() {
            long now = nanos();
            Duration idle = loop.policy().streamIdleTimeout();
            long silentFor = now - lastEventNanos.getOpaque();
            boolean tooLong = now - committedNanos > loop.ctx().config().maxStreamDuration().toNanos();
            if (silentFor < idle.toNanos() && !tooLong) {
                synchronized (this) {
                    if (!ended) {
                        timer = loop.later(idle.minusNanos(silentFor), this::idleCheck);
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
                loop.ended(attempt, new Served(true, firstTokenMillis, usage));
            } else {
                failed(ProviderFailure.transport(FailureKind.TIMEOUT, tooLong
                        ? "the stream ran longer than " + Durations.format(loop.ctx().config().maxStreamDuration())
                        : "no event for " + Durations.format(idle)), "stream_idle_timeout");
            }
        }

        /** @param interruption the code the caller's stream ends with, if this comes after the commit point */
        private void failed(ProviderFailure failure, String interruption) {
            loop.ended(attempt, committed ? new Failed(failure, true, firstTokenMillis, interruption)
                    : Failed.beforeCommit(failure));
        }

        /** Cancels the upstream exchange (a caller went away, or a timer fired). */
        void abort() {
            synchronized (this) {
                ended = true;
                if (timer != null) {
                    timer.cancel();
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
                timer.cancel();
            }
            return true;
        }
    }
}
