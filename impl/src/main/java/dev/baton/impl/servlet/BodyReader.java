package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Reads a request body without blocking, as the container makes bytes available, and refuses it
 * as soon as it grows past the limit (a chunked body has no Content-Length for the filter to check)
 * or keeps arriving past {@link #MAX_READ_TIME} (a body trickled a byte at a time never trips a
 * server's idle read timeout; a body that stops arriving does). One instance per request; the
 * container calls it from one thread at a time.
 */
final class BodyReader implements ReadListener {

    static final Duration MAX_READ_TIME = Duration.ofSeconds(10);

    private final ServletInputStream in;
    private final int maxBytes;
    private final Consumer<byte[]> onBody;
    private final Consumer<Throwable> onFailure;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final byte[] buffer = new byte[8192];
    private final long startNanos = System.nanoTime();
    private boolean done;

    private BodyReader(ServletInputStream in, int maxBytes, Consumer<byte[]> onBody, Consumer<Throwable> onFailure) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.onBody = onBody;
        this.onFailure = onFailure;
    }

    /** Starts reading; exactly one of the callbacks runs once. */
    static void read(ServletInputStream in, int maxBytes, Consumer<byte[]> onBody, Consumer<Throwable> onFailure) {
        in.setReadListener(new BodyReader(in, maxBytes, onBody, onFailure));
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (!done && in.isReady()) {
            int n = in.read(buffer);
            if (n < 0) {
                return; // onAllDataRead follows
            }
            if (body.size() + n > maxBytes) {
                fail(RequestRejectedException.tooLarge("The request body is larger than " + maxBytes + " bytes."));
                return;
            }
            if (System.nanoTime() - startNanos > MAX_READ_TIME.toNanos()) {
                fail(RequestRejectedException.bodyTimeout("The request body took longer than "
                        + MAX_READ_TIME.toSeconds() + " s to arrive."));
                return;
            }
            body.write(buffer, 0, n);
        }
    }

    @Override
    public void onAllDataRead() {
        if (!done) {
            done = true;
            onBody.accept(body.toByteArray());
        }
    }

    @Override
    public void onError(Throwable t) {
        if (!done) {
            fail(t);
        }
    }

    private void fail(Throwable t) {
        done = true;
        onFailure.accept(t);
    }
}
