package dev.baton.impl.servlet;

import dev.baton.ChatChunk;
import dev.baton.exception.FailoverException;
import jakarta.servlet.http.HttpServletResponse;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;

/**
 * Relays a stream to the client as SSE. Nothing is written before the first chunk: that chunk is the commit
 * point, when status 200 and the served-by headers go out. A failure before it is an ordinary JSON error
 * response; after it, an event named {@code error} and no {@code [DONE]}.
 */
final class SseRelay implements Flow.Subscriber<ChatChunk> {

    private static final byte[] DONE = event(null, "[DONE]");

    private final HttpServletResponse response;
    private final AsyncOutput output;
    /** The request id of an error answered before the engine gave one. */
    private final String refusalId;
    private volatile Flow.Subscription subscription;
    private volatile boolean committed;

    SseRelay(HttpServletResponse response, AsyncOutput output, String refusalId) {
        this.response = response;
        this.output = output;
        this.refusalId = refusalId;
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
        output.send(event(null, chunk.body().toString()));
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
            output.finish(event("error", (e != null ? Json.error(e)
                    : Json.error("The stream failed.", "server_error", "stream_interrupted", null)).toString()));
        }
    }

    @Override
    public void onComplete() {
        output.finish(DONE);
    }

    private static byte[] event(String name, String data) {
        return ((name == null ? "" : "event: " + name + "\n") + "data: " + data + "\n\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
