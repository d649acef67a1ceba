package dev.baton.impl.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Splits a body into UTF-8 lines as bytes arrive, at LF, CR or CRLF (the text/event-stream line ends); a line is
 * decoded whole, so a character split across buffers survives. Not thread-safe: fed by one I/O thread.
 */
final class Lines {

    private final long maxLineBytes;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    /** The last byte was a CR: an LF right after it ends nothing more. */
    private boolean afterCr;

    Lines(long maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Hands every line {@code data} completes to {@code sink}, without its end.
     *
     * @throws IllegalStateException when a line grows past the limit
     */
    void feed(ByteBuffer data, Consumer<String> sink) {
        while (data.hasRemaining()) {
            byte b = data.get();
            if (b == '\n' && afterCr) {
                afterCr = false;
                continue;
            }
            afterCr = b == '\r';
            if (b == '\n' || b == '\r') {
                sink.accept(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else if (line.size() == maxLineBytes) {
                throw new IllegalStateException("a stream line is longer than " + maxLineBytes + " bytes");
            } else {
                line.write(b);
            }
        }
    }

    /** The last line when the body ended without a line end, or {@code null}. */
    String finish() {
        return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
    }
}
