package dev.baton.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
        if (outcome instanceof Behavior.ProviderError errors) {
            Behavior.ApiError error = errors.in(wire.dialect());
            String requestId = wire.requestId();
            if (error == null) {
                error = unsupported(errors, wire.dialect());
                Map<String, String> headers = new LinkedHashMap<>(wire.headers(requestId, error, elapsedMillis));
                headers.put("x-baton-simulator-error", "unsupported-behavior");
                send(connection, wire, error, call.model(), requestId, headers);
            } else {
                send(connection, wire, error, call.model(), requestId,
                        headers(wire.headers(requestId, error, elapsedMillis), "application/json", behavior));
            }
            return true;
        }
        Behavior.Reply reply = (Behavior.Reply) outcome;
        if (reply.isGreeting()) {
            reply = new Behavior.Reply("Hello from " + call.account() + ".", null);
        }
        Map<String, String> headers = wire.headers(wire.requestId(), null, elapsedMillis);
        if (!call.stream()) {
            connection.send(200, headers(headers, "application/json", behavior), utf8(wire.completion(call, reply)));
            return true;
        }
        connection.startStream(200, headers(headers, wire.streamContentType(), behavior));
        return stream(behavior, wire, call, reply, connection);
    }

    /** Answers a request that the dialect refuses before any behaviour applies. */
    static void refuse(WireFormat wire, Behavior.ApiError error, Connection connection) throws IOException {
        String requestId = wire.requestId();
        send(connection, wire, error, null, requestId, wire.headers(requestId, error, 0));
    }

    /** The simulator's own 500 for a behaviour that has no equivalent in the request's dialect. */
    private static Behavior.ApiError unsupported(Behavior.ProviderError errors, WireFormat.Dialect dialect) {
        String factory = errors.factory();
        List<String> others = new ArrayList<>();
        for (WireFormat.Dialect d : WireFormat.Dialect.values()) {
            if (d != dialect && errors.in(d) != null) {
                others.add(d.title);
            }
        }
        return Behavior.ApiError.of(500, "simulator_error", null, null, "Baton provider simulator: Behavior."
                + factory + " has no " + dialect.title + " equivalent; it only answers " + String.join(" or ", others)
                + " requests. Script another behaviour for this account (see docs/testkit.md).");
    }

    private static void send(Connection connection, WireFormat wire, Behavior.ApiError error, String model,
            String requestId, Map<String, String> headers) throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("content-type", "application/json");
        all.putAll(headers);
        connection.send(error.status(), all, utf8(wire.errorBody(error, model, requestId)));
    }

    /**
     * Writes the events, applying the stream modifiers each time the count of written events reaches theirs. Every
     * frame counts, whatever the dialect: OpenAI's role chunk and {@code [DONE]}, Anthropic's {@code message_start}
     * and {@code ping}, and inserted malformed events alike.
     */
    private static boolean stream(Behavior behavior, WireFormat wire, WireFormat.Call call, Behavior.Reply reply,
            Connection connection) throws IOException {
        List<String> frames = wire.events(call, reply, !behavior.omitsDone(), behavior.nullsUsageChoices());
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
            boolean firstOutput = false;
            if (sent == behavior.streamErrorAfter()) {
                frame = wire.errorEvent(behavior.streamError(), sent);
                last = true;
            } else if (sent == behavior.malformedAfter() && !malformedSent) {
                frame = wire.malformedEvent(call);
                malformedSent = true;
            } else if (next < frames.size()) {
                firstOutput = next == wire.firstOutputEvent(reply);
                frame = frames.get(next++);
            } else {
                break;
            }
            if (sent > 0) {
                connection.pause(behavior.pauseBefore(firstOutput));
            }
            connection.event(wire.encode(frame));
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
