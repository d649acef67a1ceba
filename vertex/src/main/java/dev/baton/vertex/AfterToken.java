package dev.baton.vertex;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * A stream that can only be opened once an access token is there: the subscriber gets its subscription at once, and
 * the stream {@code open} makes with the token is subscribed to when the token arrives (its demand and a cancel made
 * meanwhile are passed on). A token that fails fails the subscriber. Thread-safe.
 */
final class AfterToken {

    private AfterToken() {
    }

    static <K, T> Flow.Publisher<T> stream(CompletableFuture<K> token, Function<K, Flow.Publisher<T>> open) {
        if (token.isDone() && !token.isCompletedExceptionally()) {
            return open.apply(token.join()); // the usual case: no relay
        }
        return subscriber -> {
            Relay<T> relay = new Relay<>(subscriber);
            subscriber.onSubscribe(relay);
            token.whenComplete((value, error) -> {
                if (error != null) {
                    relay.fail(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
                } else if (!relay.isCancelled()) {
                    open.apply(value).subscribe(relay);
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
