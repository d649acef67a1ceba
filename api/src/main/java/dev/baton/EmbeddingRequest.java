package dev.baton;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An OpenAI embeddings request ({@code POST /v1/embeddings}): {@code input} as a string, an array of strings or token
 * arrays, with {@code dimensions} and {@code encoding_format} passed through. It fails over across the accounts that
 * serve its one model, never to another model: vectors of two models do not mix, so {@code fallbacks} is refused.
 *
 * <p>Immutable and thread-safe.
 */
public final class EmbeddingRequest {

    private final JsonObject body;
    private final Duration timeout;

    private EmbeddingRequest(JsonObject body, Duration timeout) {
        this.body = Objects.requireNonNull(body, "body");
        this.timeout = RequestFields.timeout(timeout);
    }

    /**
     * Reads an embeddings body.
     *
     * @throws RequestRejectedException when it names {@code fallbacks}
     */
    public static EmbeddingRequest fromJson(JsonObject json) {
        if (json.containsKey(RequestFields.FALLBACKS)) {
            throw RequestRejectedException.invalidRequest("embeddings do not fall back to another model: vectors "
                    + "from two models do not mix; name one model (or a route of one model)", RequestFields.FALLBACKS);
        }
        return new EmbeddingRequest(json, null);
    }

    /** @throws RequestRejectedException when the text is not a JSON object or names {@code fallbacks} */
    public static EmbeddingRequest fromJson(String json) {
        return fromJson(RequestFields.parse(json));
    }

    /** {@code {"model": model, "input": [inputs…]}}. */
    public static EmbeddingRequest of(String model, List<String> inputs) {
        JsonArrayBuilder input = RequestFields.JSON.createArrayBuilder();
        inputs.forEach(input::add);
        return fromJson(RequestFields.JSON.createObjectBuilder().add("model", model).add("input", input).build());
    }

    /** The model or route the caller named, or {@code null}. */
    public String model() {
        return RequestFields.string(body, "model");
    }

    /** The provider-bound body. */
    public JsonObject body() {
        return body;
    }

    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    public EmbeddingRequest withBody(JsonObject newBody) {
        return new EmbeddingRequest(newBody, timeout);
    }

    public EmbeddingRequest withTimeout(Duration newTimeout) {
        return new EmbeddingRequest(body, newTimeout);
    }

    @Override
    public String toString() {
        return "EmbeddingRequest[model=" + model() + "]";
    }
}
