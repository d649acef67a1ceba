package dev.baton.impl.concurrent;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/** Small {@link Flow.Publisher}s that every layer needs. */
public final class Publishers {

    private Publishers() {
    }

    /** A publisher that fails its subscriber at once, as the Reactive Streams rules require: onSubscribe first. */
    public static <T> Flow.Publisher<T> failed(Throwable error) {
        return subscriber -> {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            subscriber.onError(error);
        };
    }

    /**
     * The stream {@code open} makes with {@code value} once it is there (a cloud's credentials, an access token): the
     * subscriber gets its subscription at once, and its demand and a cancel made meanwhile reach the real stream when
     * it is opened. A value that fails fails the subscriber with its cause; a cancelled subscriber's stream is never
     * opened. When the value is there already, the stream is {@code open}'s own, with nothing in between.
     */
    public static <K, T> Flow.Publisher<T> after(CompletableFuture<K> value, Function<K, Flow.Publisher<T>> open) {
        if (value.isDone() && !value.isCompletedExceptionally()) {
            return open.apply(value.join());
        }
        return subscriber -> {
            Relay<T> relay = new Relay<>(subscriber);
            subscriber.onSubscribe(relay);
            value.whenComplete((ready, error) -> {
                if (error != null) {
                    relay.fail(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
                } else if (!relay.isCancelled()) {
                    open.apply(ready).subscribe(relay);
                }
            });
        };
    }

    /** Stands in for the real subscription until it exists, then forwards both ways. */
    private static final class Relay<T> implements Flow.Subscription, Flow.Subscriber<T> {

        private final Flow.Subscriber<? super T> downstream;
        private Flow.Subscription upstream; // guarded by this
        private long pending; // guarded by this
        private boolean cancelled; // guarded by this

        Relay(Flow.Subscriber<? super T> downstream) {
            this.downstream = downstream;
        }

        synchronized boolean isCancelled() {
            return cancelled;
        }

        @Override
        public void request(long n) {
            Flow.Subscription s;
            synchronized (this) {
                s = upstream;
                if (s == null) {
                    pending = pending + n < 0 ? Long.MAX_VALUE : pending + Math.max(0, n);
                    return;
                }
            }
            s.request(n);
        }

        @Override
        public void cancel() {
            Flow.Subscription s;
            synchronized (this) {
                cancelled = true;
                s = upstream;
            }
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            long n;
            synchronized (this) {
                if (cancelled) {
                    n = -1;
                } else {
                    upstream = subscription;
                    n = pending;
                    pending = 0;
                }
            }
            if (n < 0) {
                subscription.cancel();
            } else if (n > 0) {
                subscription.request(n);
            }
        }

        @Override
        public void onNext(T item) {
            downstream.onNext(item);
        }

        @Override
        public void onError(Throwable error) {
            downstream.onError(error);
        }

        @Override
        public void onComplete() {
            downstream.onComplete();
        }

        void fail(Throwable error) {
            if (!isCancelled()) {
                downstream.onError(error);
            }
        }
    }

    /**
     * {@code upstream} with each item turned into {@code each}'s items (none, one or more) and, when it completes,
     * {@code atEnd}'s items last: a stream of one kind of event translated into another. The downstream demand is
     * honoured exactly: the extra items wait in a buffer, and upstream is asked for one more item only when the buffer
     * is empty and demand remains. An upstream failure reaches the subscriber after the items already buffered; so does
     * an exception thrown by {@code each} or {@code atEnd}, which also cancels upstream.
     */
    public static <T, R> Flow.Publisher<R> flatMap(Flow.Publisher<T> upstream, Function<T, List<R>> each,
            Supplier<List<R>> atEnd) {
        return subscriber -> upstream.subscribe(new FlatMap<>(subscriber, each, atEnd));
    }

    /**
     * Between upstream and the subscriber. Upstream's signals and the subscriber's requests and cancel may come on
     * different threads; whatever reaches the subscriber or asks upstream goes through {@link #drain}, which one
     * thread at a time runs (the work-in-progress counter), so its calls are serial as the Reactive Streams rules want.
     */
    private static final class FlatMap<T, R> implements Flow.Subscriber<T>, Flow.Subscription {

        private final Flow.Subscriber<? super R> downstream;
        private final Function<T, List<R>> each;
        private final Supplier<List<R>> atEnd;
        private final Queue<R> buffer = new ConcurrentLinkedQueue<>();
        private final AtomicLong demand = new AtomicLong();
        private final AtomicInteger wip = new AtomicInteger();
        private volatile Flow.Subscription upstream; // set before the subscriber can request
        private volatile boolean awaitingUpstream; // an item asked for and not yet come
        private volatile boolean done; // upstream completed or failed, or a mapping threw
        private volatile Throwable error;
        private volatile boolean cancelUpstream;
        private volatile boolean cancelled; // by the subscriber
        private volatile Throwable invalidRequest;
        private boolean upstreamCancelled; // drain only
        private boolean terminated; // drain only

        FlatMap(Flow.Subscriber<? super R> downstream, Function<T, List<R>> each, Supplier<List<R>> atEnd) {
            this.downstream = downstream;
            this.each = each;
            this.atEnd = atEnd;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void onNext(T item) {
            if (done || cancelled) {
                return; // upstream may still be sending when it is being cancelled
            }
            try {
                buffer.addAll(each.apply(item));
            } catch (RuntimeException | Error e) {
                fail(e, true);
                return;
            }
            awaitingUpstream = false;
            drain();
        }

        @Override
        public void onError(Throwable failure) {
            if (!done) {
                fail(failure, false);
            }
        }

        @Override
        public void onComplete() {
            if (done || cancelled) {
                return;
            }
            try {
                buffer.addAll(atEnd.get());
            } catch (RuntimeException | Error e) {
                fail(e, false);
                return;
            }
            done = true;
            drain();
        }

        private void fail(Throwable failure, boolean cancelUpstream) {
            error = failure;
            this.cancelUpstream |= cancelUpstream;
            done = true;
            drain();
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                invalidRequest = new IllegalArgumentException("request(" + n + "): demand must be positive");
            } else {
                demand.getAndUpdate(d -> d + n < 0 ? Long.MAX_VALUE : d + n);
            }
            drain();
        }

        @Override
        public void cancel() {
            cancelled = true;
            cancelUpstream = true;
            drain();
        }

        private void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                drainOnce();
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }

        private void drainOnce() {
            if (terminated) {
                buffer.clear();
                return;
            }
            if ((cancelUpstream || invalidRequest != null) && !upstreamCancelled) {
                upstreamCancelled = true;
                upstream.cancel();
            }
            if (cancelled) {
                terminated = true;
                buffer.clear();
                return;
            }
            if (invalidRequest != null) {
                terminate(invalidRequest);
                return;
            }
            boolean finished = done; // read first: once it is true, every item is in the buffer
            long wanted = demand.get();
            long emitted = 0;
            R item;
            while (emitted < wanted && !cancelled && (item = buffer.poll()) != null) {
                downstream.onNext(item);
                emitted++;
            }
            if (emitted > 0 && wanted != Long.MAX_VALUE) {
                demand.addAndGet(-emitted);
            }
            if (cancelled || !buffer.isEmpty()) {
                return; // the next drain clears up, or there is no demand left
            }
            if (finished) {
                terminate(error);
            } else if (demand.get() > 0 && !awaitingUpstream) {
                awaitingUpstream = true;
                upstream.request(1);
            }
        }

        private void terminate(Throwable failure) {
            terminated = true;
            buffer.clear();
            if (failure != null) {
                downstream.onError(failure);
            } else {
                downstream.onComplete();
            }
        }
    }
}
