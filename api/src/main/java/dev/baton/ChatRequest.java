package dev.baton;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A chat request with OpenAI chat-completions semantics.
 *
 * <p>The body is kept as JSON so that fields Baton does not know (new provider parameters land
 * often) reach OpenAI-compatible targets untouched; only {@code model} is rewritten per target.
 * The gateway-private field {@code fallbacks} is taken out of the body. The deadline and the
 * session key travel beside the body, never to a provider.
 *
 * <p>Immutable and thread-safe.
 */
public final class ChatRequest {

    private static final JsonProvider JSON = RequestFields.JSON;

    private final JsonObject body;
    private final List<String> fallbacks;
    private final Duration timeout;
    private final String session;
    /** Read once, as {@link #stream}: the engine asks for them at every stage, and a lookup hashes the name. */
    private final String model;
    private final boolean stream;

    private ChatRequest(JsonObject body, List<String> fallbacks, Duration timeout, String session) {
        this.body = Objects.requireNonNull(body, "body");
        this.model = RequestFields.string(body, "model");
        this.stream = body.get("stream") == JsonValue.TRUE;
        this.fallbacks = List.copyOf(fallbacks);
        this.timeout = RequestFields.timeout(timeout);
        this.session = session == null || session.isBlank() ? null : session;
    }

    /**
     * Reads an OpenAI chat-completions body. Only the shape of {@code fallbacks} is checked here;
     * the rest is validated when the request is admitted.
     *
     * @throws RequestRejectedException when {@code fallbacks} is not an array of strings
     */
    public static ChatRequest fromJson(JsonObject json) {
        return new ChatRequest(RequestFields.withoutFallbacks(json), RequestFields.fallbacks(json), null, null);
    }

    /**
     * Parses a JSON text.
     *
     * @throws RequestRejectedException when the text is not a JSON object
     */
    public static ChatRequest fromJson(String json) {
        return fromJson(RequestFields.parse(json));
    }

    /** A one-message request: {@code {"model": model, "messages": [{"role": "user", "content": text}]}}. */
    public static ChatRequest of(String model, String userMessage) {
        return builder().model(model).message("user", userMessage).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The model or route the caller named, or {@code null} when the body has none. */
    public String model() {
        return model;
    }

    /** Whether the caller asked for a stream ({@code "stream": true}). */
    public boolean stream() {
        return stream;
    }

    /** The provider-bound body: everything the caller sent except Baton's own fields. */
    public JsonObject body() {
        return body;
    }

    /** The models to try, in order, once every connection of the requested model has failed. */
    public List<String> fallbacks() {
        return fallbacks;
    }

    /** The caller's own deadline for the whole request, if it gave one. */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /**
     * The caller's session key: a route with {@code balance=sticky} sends every request of a
     * session to the same target while that target is usable, so a provider's prompt cache keeps
     * serving it. Without one, a sticky route reads {@code prompt_cache_key}, then {@code user},
     * then {@code safety_identifier} from the body. Never sent to a provider.
     */
    public Optional<String> session() {
        return Optional.ofNullable(session);
    }

    public ChatRequest withBody(JsonObject newBody) {
        return new ChatRequest(newBody, fallbacks, timeout, session);
    }

    public ChatRequest withStream(boolean stream) {
        if ((stream ? JsonValue.TRUE : JsonValue.FALSE).equals(body.get("stream"))) {
            return this; // as it is: no copy of the body
        }
        return withBody(JSON.createObjectBuilder(body).add("stream", stream).build());
    }

    public ChatRequest withTimeout(Duration newTimeout) {
        return new ChatRequest(body, fallbacks, newTimeout, session);
    }

    public ChatRequest withFallbacks(List<String> newFallbacks) {
        return new ChatRequest(body, newFallbacks, timeout, session);
    }

    /** This request with {@code newSession} as its session key ({@code null} or blank for none). */
    public ChatRequest withSession(String newSession) {
        return new ChatRequest(body, fallbacks, timeout, newSession);
    }

    /** The body as OpenAI-compatible JSON, with {@code fallbacks} put back when present. */
    public JsonObject toJson() {
        return RequestFields.withFallbacks(body, fallbacks);
    }

    @Override
    public String toString() {
        // Never the messages: prompts stay out of logs.
        return "ChatRequest[model=" + model() + ", stream=" + stream() + ", messages="
                + (body.get("messages") instanceof JsonArray a ? a.size() : 0) + ", fallbacks=" + fallbacks + "]";
    }

    /** Builds a request; {@link #build()} copies, so a builder can be reused. */
    public static final class Builder {
        private final JsonObjectBuilder body = JSON.createObjectBuilder();
        private final JsonArrayBuilder messages = JSON.createArrayBuilder();
        private final List<String> fallbacks = new ArrayList<>();
        private Duration timeout;
        private String session;

        private Builder() {
        }

        public Builder model(String model) {
            body.add("model", model);
            return this;
        }

        public Builder message(String role, String content) {
            messages.add(JSON.createObjectBuilder().add("role", role).add("content", content));
            return this;
        }

        /** A message of any shape (content parts, tool calls, tool results). */
        public Builder message(JsonObject message) {
            messages.add(message);
            return this;
        }

        public Builder stream(boolean stream) {
            body.add("stream", stream);
            return this;
        }

        /** Any other chat-completions parameter, passed through as given. */
        public Builder param(String name, JsonValue value) {
            body.add(name, value);
            return this;
        }

        public Builder param(String name, String value) {
            body.add(name, value);
            return this;
        }

        public Builder param(String name, double value) {
            body.add(name, value);
            return this;
        }

        public Builder param(String name, long value) {
            body.add(name, value);
            return this;
        }

        public Builder param(String name, boolean value) {
            body.add(name, value);
            return this;
        }

        public Builder fallbacks(String... models) {
            fallbacks.addAll(List.of(models));
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** The session key a sticky route keeps on one target; see {@link ChatRequest#session()}. */
        public Builder session(String session) {
            this.session = session;
            return this;
        }

        public ChatRequest build() {
            JsonObject built = body.build();
            JsonObjectBuilder copy = JSON.createObjectBuilder(built);
            JsonArray builtMessages = messages.build();
            copy.add("messages", builtMessages);
            // JsonObjectBuilder.build() resets the builder; put the state back so it can be reused.
            body.addAll(JSON.createObjectBuilder(built));
            builtMessages.forEach(messages::add);
            return new ChatRequest(copy.build(), fallbacks, timeout, session);
        }
    }
}
