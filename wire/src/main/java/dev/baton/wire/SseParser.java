package dev.baton.wire;

import dev.baton.spi.ProviderTransport.Event;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Assembles server-sent events from lines (the text/event-stream grammar: {@code event:},
 * {@code data:} fields, comments, a blank line ends an event). One instance per stream; not
 * thread-safe.
 */
public final class SseParser {

    private static final byte[] NO_BYTES = {};
    private static final byte[] DATA = {'d', 'a', 't', 'a'};
    private static final byte[] EVENT = {'e', 'v', 'e', 'n', 't'};

    private final long maxEventChars;
    private String event;
    /** The event's data: its only line, as nearly every event has one; a second line starts {@link #moreData}. */
    private String data;
    private StringBuilder moreData;

    public SseParser(long maxEventChars) {
        this.maxEventChars = maxEventChars;
    }

    /**
     * Feeds one line without its terminator; returns the event it completes, or {@code null}.
     *
     * @throws IllegalStateException when an event grows past the limit
     */
    public Event line(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return line(bytes, 0, bytes.length);
    }

    /**
     * {@link #line(String)} from the line's UTF-8 bytes at {@code [start, end)}: only a field's value is decoded, so
     * a {@code data:} line costs one string, its value.
     *
     * @throws IllegalStateException when an event grows past the limit
     */
    public Event line(byte[] bytes, int start, int end) {
        if (start == end) {
            if (data == null) {
                event = null;
                return null;
            }
            Event done = new Event(event, moreData == null ? data : moreData.toString());
            event = null;
            data = null;
            moreData = null;
            return done;
        }
        if (bytes[start] == ':') {
            return null; // comment, e.g. a keep-alive
        }
        int colon = start;
        while (colon < end && bytes[colon] != ':') {
            colon++;
        }
        // Bytes from after an ASCII ':' (or ' ') to a line end: whole UTF-8 characters, decoded alone.
        int valueStart = colon < end ? colon + 1 : end;
        if (valueStart < end && bytes[valueStart] == ' ') {
            valueStart++;
        }
        if (isField(bytes, start, colon, DATA)) {
            String value = new String(bytes, valueStart, end - valueStart, StandardCharsets.UTF_8);
            if (data == null) {
                data = value;
            } else {
                if (moreData == null) {
                    moreData = new StringBuilder(data);
                }
                moreData.append('\n').append(value);
            }
            if ((moreData == null ? data.length() : moreData.length()) > maxEventChars) {
                throw new IllegalStateException("a stream event is larger than " + maxEventChars + " characters");
            }
        } else if (isField(bytes, start, colon, EVENT)) {
            event = new String(bytes, valueStart, end - valueStart, StandardCharsets.UTF_8);
        }
        // id, retry and unknown fields carry nothing Baton uses
        return null;
    }

    private static boolean isField(byte[] bytes, int start, int end, byte[] name) {
        return end - start == name.length && Arrays.equals(bytes, start, end, name, 0, name.length);
    }

    /** The event left when the body ends without a final blank line, or {@code null}. */
    public Event finish() {
        return line(NO_BYTES, 0, 0);
    }
}
