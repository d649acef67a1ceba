package dev.baton.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Splits a body into UTF-8 lines as bytes arrive, at LF, CR or CRLF (the text/event-stream line ends), and hands on
 * each line's bytes whole, so a character split across buffers survives. This runs for every byte of every stream, so
 * the bytes are copied once, in bulk, into an array of its own (Netty's buffers are mostly direct: read one byte at a
 * time they cost a bounds and a liveness check each), and line ends are looked for eight bytes at a time. Not
 * thread-safe: fed by one I/O thread.
 */
public final class Lines {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LFS = ONES * '\n';
    private static final long CRS = ONES * '\r';

    private final long maxLineBytes;
    /** The line begun and not yet ended, then what of the current read is not split yet, at {@code [0, length)}. */
    private byte[] bytes = new byte[256];
    private int length;
    /** The last line ended at a CR: an LF right after it ends nothing more. */
    private boolean afterCr;

    public Lines(long maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
    }

    /** Where {@link #feed(ByteBuffer, Sink)} hands each line: its UTF-8 bytes, not yet decoded. */
    @FunctionalInterface
    public interface Sink {
        /** The line at {@code [start, end)} of {@code bytes}, which are reused once this returns. */
        void line(byte[] bytes, int start, int end);
    }

    /**
     * Hands every line {@code data} completes to {@code sink} as bytes, without its end: a reader that needs only part
     * of a line (an SSE field's value) decodes only that.
     *
     * @throws IllegalStateException when a line grows past the limit
     */
    public void feed(ByteBuffer data, Sink sink) {
        while (data.hasRemaining()) {
            if (length == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2); // one line fills the array
            }
            int scanned = length; // no line end before this
            int count = Math.min(data.remaining(), bytes.length - length);
            data.get(bytes, length, count);
            length += count;
            int start = 0;
            while (true) {
                if (afterCr && start < length) {
                    afterCr = false;
                    if (bytes[start] == '\n') {
                        scanned = ++start;
                    }
                }
                int end = lineEnd(bytes, scanned, length);
                if (end == length) {
                    break;
                }
                checkLimit(end - start);
                afterCr = bytes[end] == '\r';
                sink.line(bytes, start, end);
                start = scanned = end + 1;
            }
            length -= start;
            System.arraycopy(bytes, start, bytes, 0, length);
            checkLimit(length);
        }
    }

    /** The index of the first CR or LF in {@code bytes} from {@code from}, or {@code to}. */
    static int lineEnd(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            long lf = word ^ LFS; // a zero byte where an LF is
            long cr = word ^ CRS;
            long found = ((lf - ONES) & ~lf | (cr - ONES) & ~cr) & HIGHS;
            if (found != 0) {
                // The lowest mark is exact (a borrow only ever marks bytes above a real one): the first of them.
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            byte b = bytes[i];
            if (b == '\n' || b == '\r') {
                return i;
            }
        }
        return to;
    }

    private void checkLimit(int lineBytes) {
        if (lineBytes > maxLineBytes) {
            throw new IllegalStateException("a stream line is longer than " + maxLineBytes + " bytes");
        }
    }

    /** Hands {@code sink} the last line when the body ended without a line end. */
    public void finish(Sink sink) {
        if (length > 0) {
            sink.line(bytes, 0, length);
        }
    }
}
