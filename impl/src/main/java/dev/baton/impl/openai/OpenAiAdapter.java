package dev.baton.impl.openai;

import dev.baton.ChatChunk;
import dev.baton.FailureKind;
import dev.baton.impl.engine.Redactor;
import dev.baton.impl.http.HttpExchange;
import dev.baton.impl.http.RetryAfter;
import dev.baton.impl.http.SseParser;
import dev.baton.impl.http.StreamEvents;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The OpenAI chat-completions adapter, also used for OpenAI-compatible hosts. Translates nothing
 * but {@code model} and {@code stream}: unknown fields pass through. Thread-safe.
 */
public final class OpenAiAdapter implements ProviderAdapter {

    public static final String ID = "openai";
    private static final System.Logger LOG = System.getLogger(OpenAiAdapter.class.getName());

    private final HttpExchange http;
    private final Redactor redactor;

    public OpenAiAdapter(HttpClient client, long maxResponseBytes, Redactor redactor) {
        this.http = new HttpExchange(client, maxResponseBytes);
        this.redactor = redactor;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = Json.createObjectBuilder(body).add("model", target.model()).add("stream", false)
                .remove("stream_options").build();
        return http.json(request(target, wire, headersTimeout, false), headersTimeout, this::failure);
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = Json.createObjectBuilder(body).add("model", target.model()).add("stream", true).build();
        return http.stream(request(target, wire, headersTimeout, true), headersTimeout, this::failure, Events::new);
    }

    private HttpRequest request(ProviderTarget target, JsonObject wire, Duration headersTimeout, boolean stream) {
        URI uri = URI.create(target.baseUrl() + "/chat/completions");
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .timeout(headersTimeout)
                .header("content-type", "application/json")
                .header("accept", stream ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(wire.toString()));
        if ("http".equals(uri.getScheme())) {
            builder.version(HttpClient.Version.HTTP_1_1); // no h2c upgrade dance with local hosts
        }
        if (!target.apiKey().isEmpty()) {
            builder.header("authorization", "Bearer " + target.apiKey());
        }
        target.headers().forEach(builder::header);
        return builder.build();
    }

    /** Turns an error response into a classified failure; the message is the provider's, without credentials. */
    ProviderException failure(int status, String body, HttpHeaders headers) {
        String type = null;
        String code = null;
        String message = null;
        try {
            JsonObject error = HttpExchange.parse(body).getJsonObject("error");
            if (error != null) {
                type = text(error.get("type"));
                code = text(error.get("code"));
                message = text(error.get("message"));
            }
        } catch (JsonException | ClassCastException | IllegalStateException e) {
            // Proxies answer 502/504 with HTML; the status alone classifies it.
        }
        FailureKind kind = OpenAiClassifier.classify(status, type, code);
        String detail = "HTTP " + status + (code != null ? " " + code : type != null ? " " + type : "")
                + (message != null ? ": " + message : "");
        return new ProviderException(new ProviderFailure(kind, status, type, code, redactor.clean(detail),
                RetryAfter.parse(headers, Clock.systemUTC().instant())));
    }

    private static String text(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : value == null || value == JsonValue.NULL ? null : value.toString();
    }

    /** OpenAI's stream: {@code data:} chunks, an {@code error} object on failure, {@code [DONE]} at the end. */
    private final class Events implements StreamEvents {
        private boolean sawFinish;
        private boolean sawDone;
        private int malformed;

        @Override
        public List<JsonObject> onEvent(SseParser.Event event) {
            String data = event.data().strip();
            if (data.startsWith("[DONE]")) {
                sawDone = true;
                return List.of();
            }
            JsonObject chunk;
            try {
                chunk = HttpExchange.parse(data);
            } catch (JsonException | ClassCastException | IllegalStateException e) {
                // Skipped and counted, never forwarded: a client could not parse it either.
                malformed++;
                LOG.log(Level.DEBUG, "skipped a malformed stream event ({0} so far)", malformed);
                return List.of();
            }
            if (chunk.get("error") instanceof JsonObject error) {
                String type = text(error.get("type"));
                String code = text(error.get("code"));
                String message = text(error.get("message"));
                throw new ProviderException(new ProviderFailure(OpenAiClassifier.classify(0, type, code), 0, type, code,
                        redactor.clean("error event in stream" + (code != null ? " " + code : "")
                                + (message != null ? ": " + message : "")), null));
            }
            if (new ChatChunk(chunk, null, null).finishReason() != null) {
                sawFinish = true;
            }
            return List.of(chunk);
        }

        @Override
        public boolean done() {
            return sawDone;
        }

        @Override
        public boolean completeAtEnd() {
            return sawFinish || sawDone;
        }
    }
}
