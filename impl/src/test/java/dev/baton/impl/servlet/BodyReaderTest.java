package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.concurrent.VirtualTime;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    private static final class Input extends ServletInputStream {
        final Queue<byte[]> chunks = new ArrayDeque<>();
        boolean finished;
        ReadListener listener;

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
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(byte[] b) {
            byte[] next = chunks.poll();
            if (next == null) {
                return -1;
            }
            System.arraycopy(next, 0, b, 0, next.length);
            return next.length;
        }
    }

    private Input reading(int maxBytes) {
        Input in = new Input();
        BodyReader.read(in, maxBytes, LIMIT, time, body::complete, failure::complete);
        return in;
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
