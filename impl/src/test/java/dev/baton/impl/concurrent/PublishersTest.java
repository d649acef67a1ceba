package dev.baton.impl.concurrent;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Publishers#after}: a stream opened once a value arrives; subscribed at once, demand and cancellation kept until then. */
class PublishersTest {

    /** A publisher that notes the demand it gets and whether it was cancelled; emits "x" once per request(n). */
    private static final class Source implements Flow.Publisher<String> {
        final AtomicLong requested = new AtomicLong();
        final AtomicBoolean cancelled = new AtomicBoolean();
        final AtomicBoolean subscribed = new AtomicBoolean();

        @Override
        public void subscribe(Flow.Subscriber<? super String> subscriber) {
            subscribed.set(true);
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    requested.addAndGet(n);
                    subscriber.onNext("x");
                }

                @Override
                public void cancel() {
                    cancelled.set(true);
                }
            });
        }
    }

    private static final class Recorder implements Flow.Subscriber<String> {
        final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        final List<String> items = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription.set(s);
        }

        @Override
        public void onNext(String item) {
            items.add(item);
        }

        @Override
        public void onError(Throwable t) {
            error.set(t);
        }

        @Override
        public void onComplete() {
        }
    }

    @Test
    void demandBeforeThePublisherArrivesReachesIt() {
        CompletableFuture<Flow.Publisher<String>> later = new CompletableFuture<>();
        Recorder recorder = new Recorder();
        Publishers.after(later, p -> p).subscribe(recorder);
        assertNotNull(recorder.subscription.get(), "subscribed at once");
        recorder.subscription.get().request(3);
        recorder.subscription.get().request(2);

        Source source = new Source();
        later.complete(source);

        assertEquals(5, source.requested.get());
        assertEquals(List.of("x"), recorder.items);
        recorder.subscription.get().request(1);
        assertEquals(6, source.requested.get());
    }

    @Test
    void cancellingBeforeThePublisherArrivesNeverOpensIt() {
        CompletableFuture<Flow.Publisher<String>> later = new CompletableFuture<>();
        Recorder recorder = new Recorder();
        Publishers.after(later, p -> p).subscribe(recorder);
        recorder.subscription.get().cancel();

        Source source = new Source();
        later.complete(source);

        assertFalse(source.subscribed.get());
        assertTrue(recorder.items.isEmpty());
    }

    @Test
    void cancellingAfterwardsReachesThePublisher() {
        CompletableFuture<Flow.Publisher<String>> later = new CompletableFuture<>();
        Recorder recorder = new Recorder();
        Publishers.after(later, p -> p).subscribe(recorder);
        Source source = new Source();
        later.complete(source);

        recorder.subscription.get().cancel();

        assertTrue(source.cancelled.get());
    }

    @Test
    void aValueThereAlreadyOpensTheStreamItself() {
        Source source = new Source();

        assertSame(source, Publishers.after(CompletableFuture.completedFuture("token"), token -> source));
    }

    @Test
    void aFailedFutureFailsTheSubscriberWithItsCause() {
        IllegalStateException cause = new IllegalStateException("no credentials");
        Recorder recorder = new Recorder();

        Publishers.<Flow.Publisher<String>, String>after(CompletableFuture.supplyAsync(() -> {
            throw cause;
        }), p -> p).subscribe(recorder);
        long end = System.nanoTime() + 5_000_000_000L;
        while (recorder.error.get() == null && System.nanoTime() < end) {
            Thread.onSpinWait();
        }

        assertSame(cause, recorder.error.get());
    }
}
