package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.concurrent.Scheduler;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Reads a request body without blocking, as the container makes bytes available, and refuses it
 * as soon as it grows past the limit (a chunked body has no Content-Length for the filter to check)
 * or when it has not all arrived within the read limit (a body trickled a byte at a time never
 * trips a server's idle read timeout). The read limit is a timer, not a check made when bytes
 * arrive: a container may hold trickled bytes back from {@link #onDataAvailable()} (Open Liberty
 * does), and then no callback would ever come to make it. One instance per request.
 *
 * <p>A body the container already holds whole is read at once on the request's thread, which saves handing the
 * listener's first callback to another thread. That read cannot block: it is made only when
 * {@link ServletInputStream#available()} says the whole body is there, and its last read, which finds the end as a
 * listener does, needs no bytes (the body's Content-Length told the container where it ends); otherwise the listener
 * reads all of it.
 * WildFly holds a chat request's few hundred bytes once it has the headers; Open Liberty reports none before the
 * application reads, so there the listener always reads.
 */
final class BodyReader implements ReadListener {

    static final Duration MAX_READ_TIME = Duration.ofSeconds(10);

    private final ServletInputStream in;
    private final int maxBytes;
    private final Consumer<byte[]> onBody;
    private final Consumer<Throwable> onFailure;
    /**
     * Both let go once the read ends: the container keeps this listener as long as the request, a stream's hours.
     * Both start as large as the body says it is, up to 8 KiB: a chat request is a few hundred bytes.
     */
    private volatile ByteArrayOutputStream body;
    private volatile byte[] buffer;
    /** Set once, by whichever ends the read first: the container's callbacks or the timer. */
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Scheduler.Scheduled deadline;

    private BodyReader(ServletInputStream in, long contentLength, int maxBytes, Consumer<byte[]> onBody,
                       Consumer<Throwable> onFailure) {
        // Never more than that up front, whatever the header says: a body grows only as it arrives.
        int expected = (int) Math.max(1, contentLength >= 0 ? Math.min(contentLength, 8192) : 8192);
        this.body = new ByteArrayOutputStream(expected);
        this.buffer = new byte[expected];
        this.in = in;
        this.maxBytes = maxBytes;
        this.onBody = onBody;
        this.onFailure = onFailure;
    }

    /**
     * Starts reading; exactly one of the callbacks runs once: on this thread when the container holds the whole
     * body already, else on a container thread or, when the body is late, on {@code scheduler}'s thread.
     *
     * @param contentLength the request's {@code Content-Length}, or -1 when it has none (a chunked body)
     */
    static void read(ServletInputStream in, long contentLength, int maxBytes, Duration maxReadTime,
                     Scheduler scheduler, Consumer<byte[]> onBody, Consumer<Throwable> onFailure) {
        byte[] whole;
        try {
            whole = contentLength >= 0 && contentLength <= maxBytes ? held(in, (int) contentLength) : null;
        } catch (IOException e) {
            onFailure.accept(e);
            return;
        }
        if (whole != null) {
            onBody.accept(whole);
            return;
        }
        BodyReader reader = new BodyReader(in, contentLength, maxBytes, onBody, onFailure);
        reader.deadline = scheduler.schedule(maxReadTime, () -> reader.fail(Rejections.bodyTimeout(
                "The request body took longer than " + maxReadTime.toSeconds() + " s to arrive.")));
        in.setReadListener(reader);
    }

    /** The whole body when the container holds all of it, read without blocking; else {@code null}, nothing read. */
    private static byte[] held(ServletInputStream in, int length) throws IOException {
        if (in.available() < length) {
            return null;
        }
        byte[] body = new byte[length];
        for (int n = 0; n < length; ) {
            int read = in.read(body, n, length - n);
            if (read < 0) {
                throw new IOException("the body ended after " + n + " of its " + length + " bytes");
            }
            n += read;
        }
        // Read to the end (-1), as a listener does: on WildFly, a body left short of it kept the connection's I/O
        // thread busy in Undertow's read listener, which loops while a request is still running (performance.md).
        if (in.read() != -1) {
            throw new IOException("the body is longer than its Content-Length");
        }
        return body;
    }

    @Override
    public void onDataAvailable() throws IOException {
        ByteArrayOutputStream body = this.body;
        byte[] buffer = this.buffer;
        while (!done.get() && in.isReady()) {
            int n = in.read(buffer);
            if (n < 0) {
                return; // onAllDataRead follows
            }
            if (body.size() + n > maxBytes) {
                fail(Rejections.tooLarge("The request body is larger than " + maxBytes + " bytes."));
                return;
            }
            body.write(buffer, 0, n);
        }
    }

    @Override
    public void onAllDataRead() {
        ByteArrayOutputStream read = body;
        if (end()) {
            onBody.accept(read.toByteArray());
        }
    }

    @Override
    public void onError(Throwable t) {
        fail(t);
    }

    private void fail(Throwable t) {
        if (end()) {
            onFailure.accept(t);
        }
    }

    /** Whether this call ended the read (and stopped the timer); false when it had already ended. */
    private boolean end() {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        Scheduler.Scheduled timer = deadline;
        if (timer != null) {
            timer.cancel();
        }
        body = null;
        buffer = null;
        return true;
    }
}
