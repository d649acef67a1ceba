package dev.baton;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A request to OpenAI's Responses API ({@code POST /v1/responses}), sent through the same routes, failover and
 * budgets as a chat request. To targets that speak the Responses API (OpenAI, Azure OpenAI) the body goes as it is,
 * with only {@code model} rewritten; to the others (Anthropic, Bedrock, Vertex AI, compatible hosts) it is translated
 * to their wire, and what cannot be translated fails that target as an invalid request naming the field (see
 * docs/servlet.md for which fields go where). {@code fallbacks}, the deadline and the session key are Baton's, as for
 * {@link ChatRequest}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ResponseRequest {

    private final JsonObject body;
    private final List<String> fallbacks;
    private final Duration timeout;
    private final String session;

    private ResponseRequest(JsonObject body, List<String> fallbacks, Duration timeout, String session) {
        this.body = Objects.requireNonNull(body, "body");
        this.fallbacks = List.copyOf(fallbacks);
        this.timeout = RequestFields.timeout(timeout);
        this.session = session == null || session.isBlank() ? null : session;
    }

    /**
     * Reads a Responses API body; {@code fallbacks} is taken out of it.
     *
     * @throws RequestRejectedException when {@code fallbacks} is not an array of strings
     */
    public static ResponseRequest fromJson(JsonObject json) {
        return new ResponseRequest(RequestFields.withoutFallbacks(json), RequestFields.fallbacks(json), null, null);
    }

    /** @throws RequestRejectedException when the text is not a JSON object */
    public static ResponseRequest fromJson(String json) {
        return fromJson(RequestFields.parse(json));
    }

    /** {@code {"model": model, "input": input}}. */
    public static ResponseRequest of(String model, String input) {
        return fromJson(RequestFields.JSON.createObjectBuilder().add("model", model).add("input", input).build());
    }

    /** The model or route the caller named, or {@code null}. */
    public String model() {
        return RequestFields.string(body, "model");
    }

    /** Whether the caller asked for the event stream ({@code "stream": true}). */
    public boolean stream() {
        return body.get("stream") == JsonValue.TRUE;
    }

    /** The provider-bound body: everything the caller sent except {@code fallbacks}. */
    public JsonObject body() {
        return body;
    }

    public List<String> fallbacks() {
        return fallbacks;
    }

    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /** The session key of a sticky route, as {@link ChatRequest#session()}. */
    public Optional<String> session() {
        return Optional.ofNullable(session);
    }

    public ResponseRequest withBody(JsonObject newBody) {
        return new ResponseRequest(newBody, fallbacks, timeout, session);
    }

    public ResponseRequest withTimeout(Duration newTimeout) {
        return new ResponseRequest(body, fallbacks, newTimeout, session);
    }

    public ResponseRequest withFallbacks(List<String> newFallbacks) {
        return new ResponseRequest(body, newFallbacks, timeout, session);
    }

    public ResponseRequest withSession(String newSession) {
        return new ResponseRequest(body, fallbacks, timeout, newSession);
    }

    /** The body with {@code fallbacks} put back when present. */
    public JsonObject toJson() {
        return RequestFields.withFallbacks(body, fallbacks);
    }

    @Override
    public String toString() {
        // Never the input: prompts stay out of logs.
        return "ResponseRequest[model=" + model() + ", stream=" + stream() + ", fallbacks=" + fallbacks + "]";
    }
}
