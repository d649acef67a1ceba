package dev.baton.impl.concurrent;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Publishers#flatMap}: each item to several, demand honoured exactly, failures after what is buffered. */
class PublishersFlatMapTest {

    /** An upstream the test drives by hand: it notes the demand it gets and whether it was cancelled. */
    private static final class Source implements Flow.Publisher<String> {
        final AtomicLong requested = new AtomicLong();
        final AtomicBoolean cancelled = new AtomicBoolean();
        Flow.Subscriber<? super String> subscriber;

        @Override
        public void subscribe(Flow.Subscriber<? super String> s) {
            subscriber = s;
            s.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    requested.addAndGet(n);
                }

                @Override
                public void cancel() {
                    cancelled.set(true);
                }
            });
        }
    }

    private static final class Recorder implements Flow.Subscriber<String> {
        final List<String> items = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final AtomicInteger completions = new AtomicInteger();
        Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
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
            completions.incrementAndGet();
        }
    }

    /** "a" to a1 and a2, "b" to nothing, any other item to itself; "end" at the end. */
    private static final Function<String, List<String>> EACH = item -> switch (item) {
        case "a" -> List.of("a1", "a2");
        case "b" -> List.of();
        default -> List.of(item);
    };
    private static final Supplier<List<String>> AT_END = () -> List.of("end");

    private static Recorder subscribe(Flow.Publisher<String> upstream) {
        return subscribe(upstream, EACH, AT_END);
    }

    private static Recorder subscribe(Flow.Publisher<String> upstream, Function<String, List<String>> each,
            Supplier<List<String>> atEnd) {
        Recorder recorder = new Recorder();
        Publishers.flatMap(upstream, each, atEnd).subscribe(recorder);
        return recorder;
    }

    @Test
    void oneAtATimeUpstreamIsAskedOnlyWhenTheBufferIsEmpty() {
        Source source = new Source();
        Recorder recorder = subscribe(source);
        assertEquals(0, source.requested.get(), "nothing asked before the subscriber asks");

        recorder.subscription.request(1);
        assertEquals(1, source.requested.get());
        source.subscriber.onNext("a");
        assertEquals(List.of("a1"), recorder.items);

        recorder.subscription.request(1);
        assertEquals(List.of("a1", "a2"), recorder.items, "from the buffer");
        assertEquals(1, source.requested.get(), "upstream not asked while the buffer had an item");

        recorder.subscription.request(1);
        assertEquals(2, source.requested.get());
        source.subscriber.onNext("b");
        assertEquals(3, source.requested.get(), "an item that gives nothing asks for the next at once");
        source.subscriber.onNext("c");
        assertEquals(List.of("a1", "a2", "c"), recorder.items);
        assertEquals(3, source.requested.get(), "no demand left: upstream not asked");

        source.subscriber.onComplete();
        assertEquals(List.of("a1", "a2", "c"), recorder.items, "the last items wait for demand");
        assertEquals(0, recorder.completions.get(), "and so does the completion");
        recorder.subscription.request(1);
        assertEquals(List.of("a1", "a2", "c", "end"), recorder.items);
        assertEquals(1, recorder.completions.get());
        assertNull(recorder.error.get());
    }

    @Test
    void unboundedDemandGetsEverythingInOrder() {
        SubmissionPublisher<String> source = new SubmissionPublisher<>(Runnable::run, 8);
        Recorder recorder = subscribe(source);
        recorder.subscription.request(Long.MAX_VALUE);
        for (String item : List.of("a", "b", "c", "a")) {
            source.submit(item);
        }
        source.close();

        assertEquals(List.of("a1", "a2", "c", "a1", "a2", "end"), recorder.items);
        assertEquals(1, recorder.completions.get());
    }

    @Test
    void anUpstreamFailureComesAfterTheBufferedItems() {
        Source source = new Source();
        Recorder recorder = subscribe(source);
        recorder.subscription.request(1);
        source.subscriber.onNext("a");
        IllegalStateException failure = new IllegalStateException("connection reset");
        source.subscriber.onError(failure);
        assertEquals(List.of("a1"), recorder.items);
        assertNull(recorder.error.get(), "a2 is still to come");

        recorder.subscription.request(1);
        assertEquals(List.of("a1", "a2"), recorder.items);
        assertSame(failure, recorder.error.get());
        assertEquals(0, recorder.completions.get(), "atEnd is for completion only");
    }

    @Test
    void anUpstreamFailureWithNothingBufferedComesAtOnce() {
        Source source = new Source();
        Recorder recorder = subscribe(source);
        IllegalStateException failure = new IllegalStateException("connection reset");
        source.subscriber.onError(failure);
        assertSame(failure, recorder.error.get());
    }

    @Test
    void cancelCancelsUpstreamAndDropsWhatIsBuffered() {
        Source source = new Source();
        AtomicBoolean atEndCalled = new AtomicBoolean();
        Recorder recorder = subscribe(source, EACH, () -> {
            atEndCalled.set(true);
            return List.of("end");
        });
        recorder.subscription.request(1);
        source.subscriber.onNext("a");
        recorder.subscription.cancel();
        assertTrue(source.cancelled.get());

        recorder.subscription.request(5);
        source.subscriber.onNext("c"); // upstream may still be sending as the cancel travels
        source.subscriber.onComplete();
        assertEquals(List.of("a1"), recorder.items);
        assertEquals(1, source.requested.get());
        assertFalse(atEndCalled.get());
        assertEquals(0, recorder.completions.get());
        assertNull(recorder.error.get());
    }

    @Test
    void anExceptionFromEachCancelsUpstreamAndFailsTheSubscriber() {
        Source source = new Source();
        IllegalArgumentException bad = new IllegalArgumentException("bad chunk");
        Recorder recorder = subscribe(source, item -> {
            if (item.equals("x")) {
                throw bad;
            }
            return EACH.apply(item);
        }, AT_END);
        recorder.subscription.request(1);
        source.subscriber.onNext("a");
        recorder.subscription.request(1);
        source.subscriber.onNext("x");

        assertTrue(source.cancelled.get());
        assertEquals(List.of("a1", "a2"), recorder.items);
        assertSame(bad, recorder.error.get());
        source.subscriber.onNext("c");
        source.subscriber.onComplete();
        assertEquals(List.of("a1", "a2"), recorder.items, "nothing after the failure");
        assertEquals(0, recorder.completions.get());
    }

    @Test
    void anExceptionFromAtEndFailsTheSubscriber() {
        Source source = new Source();
        IllegalStateException bad = new IllegalStateException("no end");
        Recorder recorder = subscribe(source, EACH, () -> {
            throw bad;
        });
        recorder.subscription.request(1);
        source.subscriber.onNext("c");
        source.subscriber.onComplete();

        assertEquals(List.of("c"), recorder.items);
        assertSame(bad, recorder.error.get());
        assertEquals(0, recorder.completions.get());
    }

    @Test
    void aDemandOfZeroIsAnError() {
        Source source = new Source();
        Recorder recorder = subscribe(source);
        recorder.subscription.request(0);
        assertInstanceOf(IllegalArgumentException.class, recorder.error.get());
        assertTrue(source.cancelled.get());
    }

    @Test
    void upstreamOnOneThreadAndRequestsOnAnotherLoseAndOverlapNothing() throws Exception {
        int count = 20_000;
        ExecutorService upstreamThread = Executors.newSingleThreadExecutor();
        try {
            SubmissionPublisher<String> source = new SubmissionPublisher<>(upstreamThread, 4);
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            AtomicBoolean inOnNext = new AtomicBoolean();
            AtomicBoolean overlapped = new AtomicBoolean();
            AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
            AtomicInteger completions = new AtomicInteger();
            Publishers.flatMap(source, (String item) -> List.of(item + "/1", item + "/2"), () -> List.of("end"))
                    .subscribe(new Flow.Subscriber<>() {
                        @Override
                        public void onSubscribe(Flow.Subscription s) {
                            subscription.set(s);
                        }

                        @Override
                        public void onNext(String item) {
                            if (!inOnNext.compareAndSet(false, true)) {
                                overlapped.set(true);
                            }
                            received.add(item);
                            inOnNext.set(false);
                        }

                        @Override
                        public void onError(Throwable t) {
                            received.add("error " + t);
                        }

                        @Override
                        public void onComplete() {
                            completions.incrementAndGet();
                        }
                    });
            Thread producer = new Thread(() -> {
                for (int i = 0; i < count; i++) {
                    source.submit(Integer.toString(i));
                }
                source.close();
            });
            producer.start();
            long subscribed = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (subscription.get() == null && System.nanoTime() < subscribed) {
                Thread.onSpinWait(); // SubmissionPublisher subscribes on its own thread
            }

            List<String> got = new ArrayList<>();
            for (int i = 0; i < 2 * count + 1; i++) {
                subscription.get().request(1); // from this thread, one at a time, as Baton's engine asks
                String item = received.poll(10, TimeUnit.SECONDS);
                assertTrue(item != null, "item " + i + " never came");
                got.add(item);
            }
            producer.join();
            assertFalse(overlapped.get(), "onNext calls overlapped");
            for (int i = 0; i < count; i++) {
                assertEquals(i + "/1", got.get(2 * i));
                assertEquals(i + "/2", got.get(2 * i + 1));
            }
            assertEquals("end", got.get(2 * count));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (completions.get() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(1, completions.get());
            assertTrue(received.isEmpty(), "nothing beyond the demand");
        } finally {
            upstreamThread.shutdownNow();
        }
    }
}
