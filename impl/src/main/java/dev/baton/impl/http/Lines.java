package dev.baton.impl.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Splits a body into UTF-8 lines as bytes arrive, at LF, CR or CRLF (the text/event-stream line ends); a line is
 * decoded whole, so a character split across buffers survives. Bytes between line ends are copied in bulk: this runs
 * for every byte of every stream. Not thread-safe: fed by one I/O thread.
 */
final class Lines {

    private final long maxLineBytes;
    private byte[] line = new byte[256];
    private int length;
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
            if (afterCr) {
                afterCr = false;
                if (data.get(data.position()) == '\n') {
                    data.get();
                    continue;
                }
            }
            int start = data.position();
            append(data, lineEnd(data, start, data.limit()) - start);
            if (!data.hasRemaining()) {
                return; // the line goes on in the next buffer
            }
            afterCr = data.get() == '\r';
            sink.accept(new String(line, 0, length, StandardCharsets.UTF_8));
            length = 0;
        }
    }

    /**
     * The index of the first CR or LF in {@code data} from {@code from}, or {@code to}. Read on the buffer's array when
     * it has one (the client's are heap buffers): {@code get(int)} checks its bounds at every byte.
     */
    private static int lineEnd(ByteBuffer data, int from, int to) {
        byte[] bytes = data.hasArray() ? data.array() : null;
        int offset = bytes == null ? 0 : data.arrayOffset();
        for (int i = from; i < to; i++) {
            byte b = bytes != null ? bytes[offset + i] : data.get(i);
            if (b == '\n' || b == '\r') {
                return i;
            }
        }
        return to;
    }

    private void append(ByteBuffer data, int count) {
        if (length + (long) count > maxLineBytes) {
            throw new IllegalStateException("a stream line is longer than " + maxLineBytes + " bytes");
        }
        if (length + count > line.length) {
            line = Arrays.copyOf(line, Math.max(length + count, line.length * 2));
        }
        data.get(line, length, count);
        length += count;
    }

    /** The last line when the body ended without a line end, or {@code null}. */
    String finish() {
        return length == 0 ? null : new String(line, 0, length, StandardCharsets.UTF_8);
    }
}
