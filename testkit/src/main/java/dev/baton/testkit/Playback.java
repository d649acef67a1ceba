package dev.baton.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays one {@link Behavior} onto a connection in a given dialect.
 *
 * <p>Stateless and thread-safe.
 */
final class Playback {

    /**
     * How long a cut waits after its last event. Clients such as the JDK HttpClient drop body bytes they have
     * received but not yet handed to the reader once the connection fails, so without this pause a test could not
     * rely on seeing the events that were sent before the cut.
     */
    static final Duration CUT_GRACE = Duration.ofMillis(100);

    private Playback() {
    }

    /** Returns whether the connection may carry another request afterwards. */
    static boolean perform(Behavior behavior, WireFormat wire, WireFormat.Call call, Connection connection)
            throws IOException {
        long started = System.nanoTime();
        connection.pause(behavior.delay());
        Behavior.Outcome outcome = behavior.outcome();
        if (outcome == Behavior.Fault.NO_RESPONSE) {
            connection.hold();
            return false;
        }
        if (outcome == Behavior.Fault.RESET) {
            connection.reset();
            return false;
        }
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        if (outcome instanceof Behavior.Raw raw) {
            String body = raw.body();
            String type = body.startsWith("{") ? "application/json"
                    : body.startsWith("<") ? "text/html; charset=utf-8" : "text/plain; charset=utf-8";
            connection.send(raw.status(), headers(Map.of(), type, behavior), utf8(body));
            return true;
        }
        if (outcome instanceof Behavior.ApiError error) {
            connection.send(error.status(), headers(wire.headers(false, elapsedMillis), "application/json", behavior),
                    utf8(wire.errorBody(error, call.model())));
            return true;
        }
        String text = ((Behavior.Reply) outcome).text();
        if (text == null) {
            text = "Hello from " + call.account() + ".";
        }
        Map<String, String> headers = wire.headers(true, elapsedMillis);
        if (!call.stream()) {
            connection.send(200, headers(headers, "application/json", behavior), utf8(wire.completion(call, text)));
            return true;
        }
        connection.startStream(200, headers(headers, "text/event-stream", behavior));
        return stream(behavior, wire, call, text, connection);
    }

    /** Writes the events, applying the stream modifiers each time the count of written data events reaches theirs. */
    private static boolean stream(Behavior behavior, WireFormat wire, WireFormat.Call call, String text,
            Connection connection) throws IOException {
        List<String> frames = wire.events(call, text, !behavior.omitsDone());
        int sent = 0;
        int next = 0;
        boolean malformedSent = false;
        while (true) {
            if (sent == behavior.cutAfter()) {
                connection.pause(CUT_GRACE);
                connection.cut();
                return false;
            }
            if (sent == behavior.stallAfter()) {
                connection.hold();
                return false;
            }
            String frame;
            boolean last = false;
            if (sent == behavior.streamErrorAfter()) {
                frame = wire.errorEvent(behavior.streamError());
                last = true;
            } else if (sent == behavior.malformedAfter() && !malformedSent) {
                frame = wire.malformedEvent(call);
                malformedSent = true;
            } else if (next < frames.size()) {
                frame = frames.get(next++);
            } else {
                break;
            }
            if (sent > 0) {
                connection.pause(behavior.pauseAfter(sent));
            }
            connection.event(frame);
            sent++;
            if (last) {
                break;
            }
        }
        connection.endStream();
        return true;
    }

    private static Map<String, String> headers(Map<String, String> base, String contentType, Behavior behavior) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", contentType);
        headers.putAll(base);
        headers.putAll(behavior.headers());
        if (contentType.startsWith("text/event-stream")) {
            headers.putIfAbsent("cache-control", "no-cache");
        }
        return headers;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
