package dev.baton.impl.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Collects a response body of at most {@code limit} bytes and fails with {@link TooLargeException} past it, so an
 * upstream cannot exhaust memory. Not thread-safe: fed by one I/O thread.
 */
final class BoundedBody {

    private final long limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    BoundedBody(long limit) {
        this.limit = limit;
    }

    void add(ByteBuffer data) throws TooLargeException {
        if (bytes.size() + (long) data.remaining() > limit) {
            throw new TooLargeException(limit);
        }
        byte[] chunk = new byte[data.remaining()];
        data.get(chunk);
        bytes.write(chunk, 0, chunk.length);
    }

    String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The upstream body was larger than allowed. */
    public static final class TooLargeException extends IOException {
        public TooLargeException(long limit) {
            super("the provider's response is larger than " + limit + " bytes");
        }
    }
}
