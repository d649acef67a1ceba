package dev.baton.impl.servlet;

import dev.baton.ChatChunk;
import dev.baton.wire.ResponsesShape;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import dev.baton.exception.FailoverException;
import jakarta.servlet.http.HttpServletResponse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Flow;

/**
 * Relays a stream to the client as SSE. Nothing is written before the first chunk: that chunk is the commit
 * point, when status 200 and the served-by headers go out. A failure before it is an ordinary JSON error
 * response; after it, an event named {@code error} and no {@code [DONE]}.
 *
 * <p>A Responses API stream names each event by its {@code type} and ends without {@code [DONE]}; its error event is
 * the API's own ({@code type}, {@code code}, {@code message}, {@code sequence_number}) with an {@code error} object
 * beside, which is what makes the official SDKs raise rather than hand the event over.
 */
final class SseRelay implements Flow.Subscriber<ChatChunk> {

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = event(null, "[DONE]");

    private final HttpServletResponse response;
    private final AsyncOutput output;
    /** The request id of an error answered before the engine gave one. */
    private final String refusalId;
    private volatile Flow.Subscription subscription;
    /** Whether the events are the Responses API's: named by their type, no {@code [DONE]}. */
    private final boolean typedEvents;
    private volatile boolean committed;
    /** Events sent so far: the sequence number of a Responses stream's error event. */
    private long sent;

    SseRelay(HttpServletResponse response, AsyncOutput output, String refusalId, boolean typedEvents) {
        this.response = response;
        this.output = output;
        this.refusalId = refusalId;
        this.typedEvents = typedEvents;
    }

    /**
     * Subscribes, then starts the output: each time the client has taken everything written, one more chunk is
     * asked for. Open Liberty hands the output's first callback to another thread, a wake-up that would otherwise
     * come before the provider is called.
     */
    void subscribeTo(Flow.Publisher<ChatChunk> stream) {
        stream.subscribe(this);
        Flow.Subscription s = subscription; // the engine's publishers call onSubscribe within subscribe
        output.start(() -> s.request(1), s::cancel);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
    }

    @Override
    public void onNext(ChatChunk chunk) {
        if (!committed) {
            committed = true;
            response.setStatus(200);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("cache-control", "no-cache");
            response.setHeader("x-accel-buffering", "no");
            Responses.servedBy(response, chunk.servedBy(), chunk.requestId());
        }
        sent++;
        output.send(event(typedEvents ? ResponsesShape.type(chunk.body()) : null, chunk.body().toString()));
    }

    @Override
    public void onError(Throwable error) {
        if (!committed) {
            output.finish(Responses.failure(response, error, refusalId));
        } else {
            FailoverException e = error instanceof FailoverException f ? f : null;
            // The official SDKs raise on the {"error": ...} data; the name is for clients that fail only on
            // a named error event (LangChain4j). Breaking the body instead has no portable servlet way
            // (docs/servlet.md).
            JsonObject body = e != null ? Json.error(e)
                    : Json.error("The stream failed.", "server_error", "stream_interrupted", null);
            output.finish(event("error", (typedEvents ? responsesError(body.getJsonObject("error")) : body).toString()));
        }
    }

    /** The Responses API's error event, with the OpenAI error object beside its own members. */
    private JsonObject responsesError(JsonObject error) {
        return Json.object()
                .add("type", "error")
                .add("code", error.getOrDefault("code", JsonValue.NULL))
                .add("message", error.getOrDefault("message", JsonValue.NULL))
                .add("param", error.getOrDefault("param", JsonValue.NULL))
                .add("sequence_number", sent)
                .add("error", error)
                .build();
    }

    @Override
    public void onComplete() {
        output.finish(typedEvents ? new byte[0] : DONE);
    }

    /** The event's bytes, encoded once: a chunk's text goes straight into them, not through another string. */
    private static byte[] event(String name, String data) {
        byte[] head = name == null ? DATA : ("event: " + name + "\ndata: ").getBytes(StandardCharsets.UTF_8);
        byte[] body = data.getBytes(StandardCharsets.UTF_8);
        byte[] event = Arrays.copyOf(head, head.length + body.length + 2);
        System.arraycopy(body, 0, event, head.length, body.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }
}
