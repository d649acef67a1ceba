package dev.baton.impl.http;

import dev.baton.spi.ProviderTransport.Event;

/**
 * Assembles server-sent events from lines (the text/event-stream grammar: {@code event:},
 * {@code data:} fields, comments, a blank line ends an event). One instance per stream; not
 * thread-safe.
 */
public final class SseParser {

    private final long maxEventChars;
    private String event;
    private StringBuilder data;

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
            Event done = new Event(event, data.toString());
            event = null;
            data = null;
            return done;
        }
        if (line.charAt(0) == ':') {
            return null; // comment, e.g. a keep-alive
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "event" -> event = value;
            case "data" -> {
                if (data == null) {
                    data = new StringBuilder(value);
                } else {
                    data.append('\n').append(value);
                }
                if (data.length() > maxEventChars) {
                    throw new IllegalStateException("a stream event is larger than " + maxEventChars + " characters");
                }
            }
            default -> {
                // id, retry and unknown fields carry nothing Baton uses
            }
        }
        return null;
    }

    /** The event left when the body ends without a final blank line, or {@code null}. */
    public Event finish() {
        return line("");
    }
}
