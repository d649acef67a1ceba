package dev.baton;

import dev.baton.exception.UpstreamFailedException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.spi.JsonProvider;

import java.util.Objects;
import java.util.Optional;

/**
 * A completed chat answer in the OpenAI {@code chat.completion} shape, with who served it; or a
 * degraded answer, the text a policy names for when no target could serve.
 *
 * @param body            the provider's answer, translated to the OpenAI shape; for a degraded
 *                        answer, a {@code chat.completion} whose one message is the configured text
 * @param servedBy        the target that answered; {@code null} exactly when the answer is degraded
 * @param requestId       Baton's id for the request; its record is found by it
 * @param degradedBecause the failure the degraded answer stands in for; {@code null} for a served answer
 * @param cost            the estimated provider cost at the served model's rate; {@code null} when the
 *                        model is unpriced, the provider reported no usage, or the answer is degraded
 */
public record ChatResponse(JsonObject body, ServedBy servedBy, String requestId,
                           UpstreamFailedException degradedBecause, Cost cost) {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    /**
     * Baton builds every answer it returns. An application constructs one only to stand in for Baton in its own
     * tests, for example a stub {@link FailoverChatService} that answers
     * {@code new ChatResponse(body, new ServedBy("m", "openai", "primary-account", "primary", null), "req_1", null, null)}.
     *
     * @throws IllegalArgumentException unless exactly one of {@code servedBy} and {@code degradedBecause} is set
     */
    public ChatResponse {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(requestId, "requestId");
        if ((servedBy == null) == (degradedBecause == null)) {
            throw new IllegalArgumentException("an answer is either served (servedBy) or degraded (degradedBecause)");
        }
    }

    /**
     * Whether this is a degraded answer rather than a model's: no target served, and the text is
     * the one the policy names. {@link #degradedBecause()} says why.
     */
    public boolean degraded() {
        return degradedBecause != null;
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

    /** The provider's {@code usage} object, as it reported it (without Baton's cost members). */
    public Optional<JsonObject> usage() {
        return body.get("usage") instanceof JsonObject usage ? Optional.of(usage) : Optional.empty();
    }

    /**
     * The body as an OpenAI-compatible client receives it: {@code model} is the served model and
     * {@code provider}, {@code connection}, {@code route} and {@code route_name} name what served.
     * When the provider reported usage, {@code usage.cost} is the estimated cost ({@code null} when
     * the model is unpriced) and {@code usage.price_source} and {@code usage.cost_currency} say
     * where the rate came from and its currency.
     * A degraded answer carries {@code "degraded": true} and no served-by fields.
     */
    public JsonObject toJson() {
        if (degraded()) {
            return JSON.createObjectBuilder(body).add("degraded", true).build();
        }
        return RequestFields.served(body, servedBy, cost);
    }

    private Optional<JsonObject> firstChoice() {
        return body.get("choices") instanceof JsonArray choices && !choices.isEmpty()
                && choices.get(0) instanceof JsonObject first ? Optional.of(first) : Optional.empty();
    }
}
