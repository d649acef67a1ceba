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

    public ChatChunk {
        Objects.requireNonNull(body, "body");
    }

    /**
     * Whether this chunk carries output: a content, refusal, reasoning or tool-call delta. The first
     * such chunk is the commit point; chunks before it (a role-only chunk) are held back so that a
     * failure right after them can still fail over invisibly.
     */
    public boolean hasOutput() {
        if (!(body.get("choices") instanceof JsonArray choices)) {
            return false;
        }
        for (JsonValue choice : choices) {
            if (choice instanceof JsonObject c && c.get("delta") instanceof JsonObject delta
                    && (nonEmpty(delta, "content") || nonEmpty(delta, "refusal")
                    || nonEmpty(delta, "reasoning_content") || nonEmpty(delta, "reasoning")
                    || delta.get("tool_calls") instanceof JsonArray calls && !calls.isEmpty())) {
                return true;
            }
        }
        return false;
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

    private static boolean nonEmpty(JsonObject delta, String field) {
        return delta.get(field) instanceof JsonString s && !s.getString().isEmpty();
    }
}
