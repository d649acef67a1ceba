package org.example.echo;

import dev.baton.FailureKind;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.spi.ProviderTransport.StreamEvents;
import dev.baton.spi.ProviderTransport;
import dev.baton.wire.RetryAfter;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The echo wire: {@code POST {base}/echo} with {@code {"model", "text", "prefix", "stream"}}; the answer is
 * {@code {"text": …}}, or with {@code stream} one server-sent event {@code {"text": …}} per word and {@code [END]}.
 * Translates both into OpenAI's shapes. Sends only through Baton's transport, so it never blocks. Thread-safe.
 */
final class EchoAdapter implements ProviderAdapter {

    private final ProviderTransport http;
    private final AdapterContext context;

    EchoAdapter(AdapterContext context) {
        this.http = context.transport();
        this.context = context;
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        String wire = wire(target, body, false);
        return http.json(target.baseUrls(), base -> request(base, target, wire), headersTimeout, this::failure)
                .thenApply(answer -> completion(target.model(), answer.getString("text", "")));
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        String wire = wire(target, body, true);
        return http.stream(target.baseUrls(), base -> request(base, target, wire), headersTimeout, this::failure,
                () -> new Words(target.model()));
    }

    private static String wire(ProviderTarget target, JsonObject body, boolean stream) {
        return Json.createObjectBuilder()
                .add("model", target.model())
                .add("text", lastUserText(body))
                .add("prefix", target.settings().getOrDefault(EchoAdapterFactory.PREFIX, ""))
                .add("stream", stream)
                .build().toString();
    }

    private static Request request(URI base, ProviderTarget target, String wire) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("content-type", "application/json");
        if (!target.apiKey().isEmpty()) {
            headers.put("authorization", "Bearer " + target.apiKey());
        }
        headers.putAll(target.headers());
        return Request.post(URI.create(base + "/echo"), headers, wire);
    }

    private static String lastUserText(JsonObject body) {
        JsonArray messages = body.getJsonArray("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonObject message = messages.getJsonObject(i);
            if ("user".equals(message.getString("role", ""))) {
                JsonValue content = message.get("content");
                return content instanceof JsonString s ? s.getString() : String.valueOf(content);
            }
        }
        return "";
    }

    /**
     * Status alone classifies: the echo wire has no error codes. A 429's Retry-After (read by baton-wire, as the
     * built-in adapters read it) tells the engine how long to park the connection.
     */
    private ProviderException failure(int status, String body, ResponseHeaders headers) {
        FailureKind kind = status == 429 ? FailureKind.RATE_LIMIT
                : status == 401 || status == 403 ? FailureKind.CREDENTIAL
                : status >= 500 ? FailureKind.SERVER_ERROR
                : FailureKind.INVALID_REQUEST;
        return new ProviderException(new ProviderFailure(kind, status, null, null,
                context.redact("HTTP " + status + ": " + body), RetryAfter.parse(headers, Instant.now())));
    }

    private static JsonObject completion(String model, String text) {
        return Json.createObjectBuilder()
                .add("id", "echo-" + Long.toHexString(System.nanoTime()))
                .add("object", "chat.completion")
                .add("created", System.currentTimeMillis() / 1000)
                .add("model", model)
                .add("choices", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("index", 0)
                        .add("message", Json.createObjectBuilder().add("role", "assistant").add("content", text))
                        .add("finish_reason", "stop")))
                .build();
    }

    /** One stream's events: each word a chunk, {@code [END]} the finished answer. */
    private static final class Words implements StreamEvents {

        private final String model;
        private final String id = "echo-" + Long.toHexString(System.nanoTime());
        private boolean ended;

        Words(String model) {
            this.model = model;
        }

        @Override
        public List<JsonObject> onEvent(Event event) {
            String data = event.data().strip();
            if (data.equals("[END]")) {
                ended = true;
                return List.of(chunk(Json.createObjectBuilder(), "stop"));
            }
            try (var reader = Json.createReader(new StringReader(data))) {
                String text = reader.readObject().getString("text");
                return List.of(chunk(Json.createObjectBuilder().add("content", text), null));
            } catch (JsonException | ClassCastException | NullPointerException malformed) {
                return List.of(); // skipped, never forwarded
            }
        }

        private JsonObject chunk(jakarta.json.JsonObjectBuilder delta, String finish) {
            var choice = Json.createObjectBuilder().add("index", 0).add("delta", delta);
            if (finish == null) {
                choice.addNull("finish_reason");
            } else {
                choice.add("finish_reason", finish);
            }
            return Json.createObjectBuilder().add("id", id).add("object", "chat.completion.chunk")
                    .add("created", System.currentTimeMillis() / 1000).add("model", model)
                    .add("choices", Json.createArrayBuilder().add(choice)).build();
        }

        @Override
        public boolean done() {
            return ended;
        }

        @Override
        public boolean completeAtEnd() {
            return ended;
        }
    }
}
