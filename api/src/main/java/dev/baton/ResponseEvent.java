package dev.baton;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.Objects;

/**
 * One event of a streamed Responses API answer ({@code response.created}, {@code response.output_text.delta}, …,
 * {@code response.completed}), with who is serving the stream.
 *
 * @param body      the event as an OpenAI client receives it: {@code type}, {@code sequence_number} and its members
 * @param servedBy  the target that produces the stream
 * @param requestId Baton's id for the request
 */
public record ResponseEvent(JsonObject body, ServedBy servedBy, String requestId) {

    public ResponseEvent {
        Objects.requireNonNull(body, "body");
    }

    /** The event's {@code type}, for example {@code response.output_text.delta}. */
    public String type() {
        return RequestFields.string(body, "type");
    }

    /** The text of a {@code response.output_text.delta}, else the empty string. */
    public String textDelta() {
        return "response.output_text.delta".equals(type()) && body.get("delta") instanceof JsonString delta
                ? delta.getString() : "";
    }
}
