package dev.baton.impl.engine;

import dev.baton.ChatResponse;
import dev.baton.exception.UpstreamFailedException;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;

/**
 * The answer a policy's {@code degraded} text makes when no target could serve: a {@code chat.completion} whose one
 * assistant message is that text, dated and identified by the failed request's record, so that a client reads it
 * like any other answer while {@link ChatResponse#degraded()} tells the application what it is.
 */
final class DegradedAnswer {

    private static final JsonProvider JSON = JsonProvider.provider();

    private DegradedAnswer() {
    }

    /**
     * @param model the model or route the caller asked for, reported as the answer's {@code model}
     * @param cause the final error the text stands in for; it always carries the request's record
     */
    static ChatResponse of(String text, String model, UpstreamFailedException cause) {
        String requestId = cause.requestId().orElseThrow(() -> new IllegalArgumentException("cause has no record"));
        JsonObject body = JSON.createObjectBuilder()
                .add("id", "chatcmpl-" + requestId)
                .add("object", "chat.completion")
                .add("created", cause.record().orElseThrow().startedAt().getEpochSecond())
                .add("model", model == null ? "" : model)
                .add("choices", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                        .add("index", 0)
                        .add("message", JSON.createObjectBuilder().add("role", "assistant").add("content", text))
                        .add("finish_reason", "stop")))
                .build();
        return new ChatResponse(body, null, requestId, cause, null);
    }
}
