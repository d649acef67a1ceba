package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.concurrent.VirtualTime;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BodyReaderTest {

    private static final Duration LIMIT = Duration.ofMillis(200);

    private final VirtualTime time = new VirtualTime();
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final CompletableFuture<Throwable> failure = new CompletableFuture<>();

    {
        time.hold(); // time moves only when a test says
    }

    /** Hands out the chunks it is given; the container's callbacks are called by the test. */
    private static class Input extends ServletInputStream {
        final Deque<byte[]> chunks = new ArrayDeque<>();
        boolean finished;
        ReadListener listener;
        /** A read answered -1: the container saw the body read to its end. */
        boolean readToEnd;

        @Override
        public boolean isFinished() {
            return finished && chunks.isEmpty();
        }

        @Override
        public boolean isReady() {
            return !chunks.isEmpty() || finished;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            this.listener = listener;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        /** What the queued chunks hold: the container's buffer. */
        @Override
        public int available() {
            return chunks.stream().mapToInt(c -> c.length).sum();
        }

        @Override
        public int read(byte[] b) {
            return read(b, 0, b.length);
        }

        /** At most one chunk a call, as a container hands out one buffer; -1 once none is left. */
        @Override
        public int read(byte[] b, int off, int len) {
            byte[] next = chunks.poll();
            if (next == null) {
                readToEnd = true;
                return -1;
            }
            int n = Math.min(len, next.length);
            System.arraycopy(next, 0, b, off, n);
            if (n < next.length) {
                chunks.addFirst(Arrays.copyOfRange(next, n, next.length));
            }
            return n;
        }
    }

    /** A chunked body: no length, so it is always read through the listener. */
    private Input reading(int maxBytes) {
        return reading(-1, maxBytes);
    }

    private Input reading(long contentLength, int maxBytes) {
        Input in = new Input();
        BodyReader.read(in, contentLength, maxBytes, LIMIT, time, body::complete, failure::complete);
        return in;
    }

    @Test
    void aBodyTheContainerHoldsWholeIsReadAtOnceWithoutAListenerOrATimer() throws Exception {
        Input in = new Input();
        in.chunks.add("{\"a\":".getBytes(StandardCharsets.UTF_8));
        in.chunks.add("1}".getBytes(StandardCharsets.UTF_8));
        BodyReader.read(in, 7, 1024, LIMIT, time, body::complete, failure::complete);

        assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.UTF_8), body.getNow(null));
        assertNull(in.listener);
        assertTrue(in.readToEnd, "read to its end, or WildFly drains it after the response");
        assertTrue(time.idle(), "no read limit to keep");
    }

    @Test
    void aHeldBodyLongerThanItsContentLengthFails() {
        Input in = new Input();
        in.chunks.add("{\"a\":1}{".getBytes(StandardCharsets.UTF_8));
        BodyReader.read(in, 7, 1024, LIMIT, time, body::complete, failure::complete);

        assertTrue(failure.getNow(null) instanceof IOException, () -> String.valueOf(failure.getNow(null)));
        assertFalse(body.isDone());
    }

    @Test
    void aBodyNotArrivedYetIsLeftToTheListener() throws Exception {
        Input in = reading(7, 1024);
        assertFalse(body.isDone());
        in.chunks.add("{\"a\":".getBytes(StandardCharsets.UTF_8));
        assertNotNull(in.listener, "the container calls back as the rest arrives");
        restArrives(in);
    }

    @Test
    void aBodyPartlyHeldIsLeftWholeToTheListener() throws Exception {
        Input in = new Input();
        in.chunks.add("{\"a\":".getBytes(StandardCharsets.UTF_8));
        BodyReader.read(in, 7, 1024, LIMIT, time, body::complete, failure::complete);
        assertEquals(1, in.chunks.size(), "nothing is read before the listener");
        assertNotNull(in.listener);
        restArrives(in);
    }

    @Test
    void aBodyThatEndsShortOfWhatTheContainerSaidItHeldFails() {
        Input in = new Input() {
            @Override
            public int available() {
                return 7; // more than it has
            }
        };
        in.chunks.add("{\"a\":".getBytes(StandardCharsets.UTF_8));
        BodyReader.read(in, 7, 1024, LIMIT, time, body::complete, failure::complete);

        assertTrue(failure.getNow(null) instanceof IOException, () -> String.valueOf(failure.getNow(null)));
        assertFalse(body.isDone());
        assertTrue(time.idle());
    }

    /** The rest of {@code {"a":1}} arrives and the container calls back: the body is delivered whole. */
    private void restArrives(Input in) throws Exception {
        in.chunks.add("1}".getBytes(StandardCharsets.UTF_8));
        in.finished = true;
        in.listener.onDataAvailable();
        in.listener.onAllDataRead();
        assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.UTF_8), body.get(1, TimeUnit.SECONDS));
    }

    @Test
    void aBodyThatNeverFinishesArrivingIsRefusedByTheTimerWithoutAnyCallback() throws Exception {
        Input in = reading(1024);
        in.chunks.add(new byte[] {'{'});
        in.listener.onDataAvailable(); // a first byte, then the container calls nothing more

        time.advance(LIMIT);
        Throwable error = failure.getNow(null);
        assertEquals(408, ((RequestRejectedException) error).httpStatus());
        assertFalse(body.isDone());

        in.finished = true;
        in.listener.onAllDataRead(); // too late: the refusal was the one answer
        assertFalse(body.isDone());
    }

    @Test
    void aBodyInTimeIsDeliveredOnceAndItsTimerCancelled() throws Exception {
        Input in = reading(1024);
        in.chunks.add("{\"a\":".getBytes(StandardCharsets.UTF_8));
        in.chunks.add("1}".getBytes(StandardCharsets.UTF_8));
        in.finished = true;
        in.listener.onDataAvailable();
        in.listener.onAllDataRead();

        assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.UTF_8), body.get(1, TimeUnit.SECONDS));
        assertTrue(time.idle(), "the read limit's timer is cancelled");
        time.advance(LIMIT.multipliedBy(2));
        assertFalse(failure.isDone());
    }

    @Test
    void aBodyPastTheSizeLimitIsRefusedAtOnce() throws Exception {
        Input in = reading(4);
        in.chunks.add("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        in.listener.onDataAvailable();

        assertEquals(413, ((RequestRejectedException) failure.getNow(null)).httpStatus());
        assertTrue(time.idle());
        in.listener.onError(new IllegalStateException("later"));
        assertEquals(413, ((RequestRejectedException) failure.get()).httpStatus());
    }
}
