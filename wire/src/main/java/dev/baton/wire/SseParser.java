package dev.baton.wire;

import dev.baton.spi.ProviderTransport.Event;

/**
 * Assembles server-sent events from lines (the text/event-stream grammar: {@code event:},
 * {@code data:} fields, comments, a blank line ends an event). One instance per stream; not
 * thread-safe.
 */
public final class SseParser {

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
        if (line.isEmpty()) {
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
        if (line.charAt(0) == ':') {
            return null; // comment, e.g. a keep-alive
        }
        int colon = line.indexOf(':');
        int fieldEnd = colon < 0 ? line.length() : colon;
        int valueStart = colon < 0 ? line.length() : colon + 1;
        if (valueStart < line.length() && line.charAt(valueStart) == ' ') {
            valueStart++;
        }
        if (isField(line, fieldEnd, "data")) {
            String value = line.substring(valueStart);
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
        } else if (isField(line, fieldEnd, "event")) {
            event = line.substring(valueStart);
        }
        // id, retry and unknown fields carry nothing Baton uses
        return null;
    }

    private static boolean isField(String line, int fieldEnd, String name) {
        return fieldEnd == name.length() && line.startsWith(name);
    }

    /** The event left when the body ends without a final blank line, or {@code null}. */
    public Event finish() {
        return line("");
    }
}
