package dev.baton;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Objects;
import java.util.Optional;

/**
 * A completed chat answer in the OpenAI {@code chat.completion} shape, with who served it.
 *
 * @param body      the provider's answer, translated to the OpenAI shape
 * @param servedBy  the target that answered
 * @param requestId Baton's id for the request; its record is found by it
 */
public record ChatResponse(JsonObject body, ServedBy servedBy, String requestId) {

    public ChatResponse {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(servedBy, "servedBy");
        Objects.requireNonNull(requestId, "requestId");
    }

    /** The text of the first choice, or {@code null} when it has none (for example only tool calls). */
    public String content() {
        JsonObject message = firstChoice().map(c -> c.getJsonObject("message")).orElse(null);
        return message != null && message.get("content") instanceof JsonString s ? s.getString() : null;
    }

    /** The first choice's {@code finish_reason}, or {@code null}. */
    public String finishReason() {
        return firstChoice().map(c -> c.get("finish_reason"))
                .filter(JsonString.class::isInstance).map(v -> ((JsonString) v).getString()).orElse(null);
    }

    public Optional<JsonObject> usage() {
        return body.get("usage") instanceof JsonObject usage ? Optional.of(usage) : Optional.empty();
    }

    /**
     * The body as an OpenAI-compatible client receives it: {@code model} is the served model and
     * {@code provider}, {@code connection}, {@code route} and {@code route_name} name what served.
     */
    public JsonObject toJson() {
        return Json.createObjectBuilder(body)
                .add("model", servedBy.model())
                .add("provider", servedBy.provider())
                .add("connection", servedBy.connection())
                .add("route", servedBy.position())
                .add("route_name", servedBy.routeName() == null ? JsonValue.NULL : Json.createValue(servedBy.routeName()))
                .build();
    }

    private Optional<JsonObject> firstChoice() {
        return body.get("choices") instanceof JsonArray choices && !choices.isEmpty()
                && choices.get(0) instanceof JsonObject first ? Optional.of(first) : Optional.empty();
    }
}
