package dev.baton;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Objects;
import java.util.Optional;

/**
 * A completed Responses API answer (a {@code response} object), with who served it.
 *
 * @param body      the answer in the Responses shape: the provider's own from OpenAI and Azure, translated from the
 *                  others
 * @param servedBy  the target that answered
 * @param requestId Baton's id for the request; its record is found by it
 * @param cost      the estimated cost at the served model's rate, or {@code null} (unpriced, or no usage reported)
 */
public record ResponseResult(JsonObject body, ServedBy servedBy, String requestId, Cost cost) {

    public ResponseResult {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(servedBy, "servedBy");
        Objects.requireNonNull(requestId, "requestId");
    }

    /** {@code completed}, {@code incomplete}, …; {@code null} when the body has none. */
    public String status() {
        return RequestFields.string(body, "status");
    }

    /** The text of every {@code output_text} part of the output's messages, joined; empty when there is none. */
    public String outputText() {
        StringBuilder text = new StringBuilder();
        if (body.get("output") instanceof JsonArray output) {
            for (JsonValue item : output) {
                if (item instanceof JsonObject message && "message".equals(RequestFields.string(message, "type"))
                        && message.get("content") instanceof JsonArray parts) {
                    for (JsonValue part : parts) {
                        if (part instanceof JsonObject p && "output_text".equals(RequestFields.string(p, "type"))
                                && p.get("text") instanceof JsonString s) {
                            text.append(s.getString());
                        }
                    }
                }
            }
        }
        return text.toString();
    }

    /** The provider's {@code usage} ({@code input_tokens}, {@code output_tokens}, …), without Baton's cost members. */
    public Optional<JsonObject> usage() {
        return body.get("usage") instanceof JsonObject usage ? Optional.of(usage) : Optional.empty();
    }

    /** The body as an OpenAI-compatible client receives it: with the served-by members and the cost in its usage. */
    public JsonObject toJson() {
        return RequestFields.served(body, servedBy, cost);
    }
}
