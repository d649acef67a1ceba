package dev.baton;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Objects;

/**
 * One {@code chat.completion.chunk} of a streamed answer, in the OpenAI shape, with who is
 * serving the stream.
 *
 * @param body      the chunk as an OpenAI client receives it
 * @param servedBy  the target that produces the stream
 * @param requestId Baton's id for the request
 */
public record ChatChunk(JsonObject body, ServedBy servedBy, String requestId) {

    /**
     * Baton builds every chunk it streams. An application constructs one only to stand in for Baton in its own
     * tests, for example a stub {@link FailoverChatService} whose stream publishes a few chunks.
     */
    public ChatChunk {
        Objects.requireNonNull(body, "body");
    }

    /** The first choice's {@code finish_reason}, or {@code null} while the answer goes on. */
    public String finishReason() {
        if (body.get("choices") instanceof JsonArray choices) {
            for (JsonValue choice : choices) {
                if (choice instanceof JsonObject c && c.get("finish_reason") instanceof JsonString reason) {
                    return reason.getString();
                }
            }
        }
        return null;
    }

    /** The text delta of the first choice, or the empty string. */
    public String contentDelta() {
        if (body.get("choices") instanceof JsonArray choices && !choices.isEmpty()
                && choices.get(0) instanceof JsonObject c && c.get("delta") instanceof JsonObject delta
                && delta.get("content") instanceof JsonString content) {
            return content.getString();
        }
        return "";
    }
}
