package dev.baton.impl.concurrent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.function.Function;

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
}
