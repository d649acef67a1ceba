package dev.baton.bedrock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A publisher that is only known later (once a connection's credentials are resolved): its subscriber gets a
 * subscription at once, whose demand and cancellation reach the real one when it arrives. A failed future fails the
 * subscriber with its cause.
 */
final class DeferredPublisher<T> implements Flow.Publisher<T> {

    private final CompletableFuture<Flow.Publisher<T>> later;

    DeferredPublisher(CompletableFuture<Flow.Publisher<T>> later) {
        this.later = later;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Relay<T> relay = new Relay<>(subscriber);
        subscriber.onSubscribe(relay);
        later.whenComplete((publisher, error) -> {
            if (relay.cancelled) {
                return;
            }
            if (error != null) {
                subscriber.onError(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
            } else {
                publisher.subscribe(relay);
            }
        });
    }

    /** Subscribes to the real publisher for the subscriber, and holds demand until the real subscription arrives. */
    private static final class Relay<T> implements Flow.Subscription, Flow.Subscriber<T> {
        private final Flow.Subscriber<? super T> downstream;
        private final AtomicReference<Flow.Subscription> upstream = new AtomicReference<>();
        private long pending; // guarded by this, until upstream is set
        private volatile boolean cancelled;

        Relay(Flow.Subscriber<? super T> downstream) {
            this.downstream = downstream;
        }

        @Override
        public void request(long n) {
            Flow.Subscription s;
            synchronized (this) {
                s = upstream.get();
                if (s == null) {
                    if (n <= 0) {
                        pending = n; // passed on, for the real subscription to fail as the rules say
                    } else if (pending >= 0) {
                        pending = pending + n < 0 ? Long.MAX_VALUE : pending + n;
                    }
                    return;
                }
            }
            s.request(n);
        }

        @Override
        public void cancel() {
            cancelled = true;
            Flow.Subscription s = upstream.get();
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            long demand;
            synchronized (this) {
                upstream.set(subscription);
                demand = pending;
            }
            if (cancelled) {
                subscription.cancel();
            } else if (demand != 0) {
                subscription.request(demand); // a non-positive demand is the real subscription's to refuse
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
    }
}
