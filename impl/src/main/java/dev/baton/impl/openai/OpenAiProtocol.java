package dev.baton.impl.openai;

import dev.baton.FailureKind;
import dev.baton.wire.JsonScan;
import dev.baton.wire.OpenAiShape;
import dev.baton.wire.ResponsesShape;
import dev.baton.wire.RawJsonObject;
import dev.baton.wire.RetryAfter;
import dev.baton.wire.SseParser;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.spi.ProviderTransport.StreamEvents;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenAI chat-completions wire, shared by every adapter that speaks it (OpenAI and compatible hosts, Azure
 * OpenAI): request bodies and headers, the error table, and the stream's events. The adapters differ only in the
 * URL and the credential header. Thread-safe.
 */
public final class OpenAiProtocol {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private static final System.Logger LOG = System.getLogger(OpenAiProtocol.class.getName());

    private final AdapterContext context;

    public OpenAiProtocol(AdapterContext context) {
        this.context = context;
    }

    /** The body sent upstream: {@code model} rewritten, {@code stream} set, nothing else touched. */
    public static JsonObject wireBody(JsonObject body, String model, boolean stream) {
        var builder = JSON.createObjectBuilder(body).add("model", model).add("stream", stream);
        if (!stream) {
            builder.remove("stream_options");
        }
        return builder.build();
    }

    /** A POST of {@code wire} to {@code uri} with the JSON headers, {@code auth} and the configured headers. */
    public static Request request(URI uri, JsonObject wire, boolean stream, Map<String, String> auth,
                                   Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("content-type", "application/json");
        all.put("accept", stream ? "text/event-stream" : "application/json");
        all.putAll(auth);
        all.putAll(headers);
        return Request.post(uri, all, wire.toString());
    }

    /** A fresh event handler for one stream. */
    public StreamEvents events() {
        return new Events();
    }

    /** A fresh event handler for one Responses API stream. */
    public StreamEvents responseEvents() {
        return new ResponseEvents();
    }

    /** The body of a Responses or embeddings request: {@code model} rewritten, nothing else touched. */
    public static JsonObject withModel(JsonObject body, String model) {
        return JSON.createObjectBuilder(body).add("model", model).build();
    }

    /** Turns an error response into a classified failure; the message is the provider's, without credentials. */
    public ProviderException failure(int status, String body, ResponseHeaders headers) {
        ErrorObject error = ErrorObject.NONE;
        try {
            ErrorObject found = ErrorObject.in(RawJsonObject.parse(body));
            error = found != null ? found : ErrorObject.NONE;
        } catch (JsonException e) {
            // Proxies answer 502/504 with HTML; the status alone classifies it. Azure's content_filter 400 has
            // "type": null and an "innererror"; its code alone classifies it.
        }
        FailureKind kind = OpenAiClassifier.classify(status, error.type(), error.code());
        String detail = "HTTP " + status + (error.code() != null ? " " + error.code()
                : error.type() != null ? " " + error.type() : "") + error.suffix();
        return new ProviderException(new ProviderFailure(kind, status, error.type(), error.code(),
                context.redact(detail), RetryAfter.parse(headers, context.clock().instant())));
    }

    /** The {@code error} object of a response or a stream event: its type, code and message, each maybe null. */
    private record ErrorObject(String type, String code, String message) {

        static final ErrorObject NONE = new ErrorObject(null, null, null);

        /** What {@code json} says in its {@code error} member, or {@code null} when that is no object. */
        static ErrorObject in(RawJsonObject json) {
            JsonScan.Span error = json.member("error");
            if (error == null || !error.isObject()) {
                return null;
            }
            return new ErrorObject(text(error.member("type")), text(error.member("code")), text(error.member("message")));
        }

        /** ": message", or nothing. */
        String suffix() {
            return message != null ? ": " + message : "";
        }

        private static String text(JsonScan.Span value) {
            return value == null || value.isNull() ? null : value.isString() ? value.string() : value.json();
        }
    }

    /**
     * The Responses API's stream: typed events, an {@code error} event or {@code response.failed} on failure, and no
     * {@code [DONE]}: {@code response.completed} (or {@code response.incomplete}) is the last event.
     */
    private final class ResponseEvents implements StreamEvents {
        private boolean sawFinal;
        private int malformed;

        @Override
        public List<JsonObject> onEvent(Event event) {
            RawJsonObject json;
            try {
                json = RawJsonObject.parse(event.data().strip());
            } catch (JsonException e) {
                malformed++;
                LOG.log(Level.DEBUG, "skipped a malformed Responses stream event ({0} so far)", malformed);
                return List.of();
            }
            String type = ResponsesShape.type(json);
            if ("error".equals(type)) {
                throw streamFailure(text(json.member("code")), text(json.member("message")));
            }
            if ("response.failed".equals(type)) {
                JsonScan.Span response = json.member("response");
                JsonScan.Span error = response == null ? null : response.member("error");
                throw streamFailure(error == null ? null : text(error.member("code")),
                        error == null ? null : text(error.member("message")));
            }
            if (type != null && ResponsesShape.FINAL.contains(type)) {
                sawFinal = true;
            }
            return List.of(json);
        }

        private ProviderException streamFailure(String code, String message) {
            return new ProviderException(new ProviderFailure(OpenAiClassifier.classify(0, null, code), 0, null, code,
                    context.redact("error event in stream" + (code != null ? " " + code : "")
                            + (message != null ? ": " + message : "")), null));
        }

        private static String text(JsonScan.Span value) {
            return value == null || !value.isString() ? null : value.string();
        }

        @Override
        public boolean done() {
            return sawFinal;
        }

        @Override
        public boolean completeAtEnd() {
            return sawFinal;
        }
    }

    /** OpenAI's stream: {@code data:} chunks, an {@code error} object on failure, {@code [DONE]} at the end. */
    private final class Events implements StreamEvents {
        private boolean sawFinish;
        private boolean sawDone;
        private int malformed;

        @Override
        public List<JsonObject> onEvent(Event event) {
            String data = event.data().strip();
            if (data.startsWith("[DONE]")) {
                sawDone = true;
                return List.of();
            }
            RawJsonObject chunk;
            try {
                chunk = RawJsonObject.parse(data);
            } catch (JsonException e) {
                // Skipped and counted, never forwarded: a client could not parse it either.
                malformed++;
                LOG.log(Level.DEBUG, "skipped a malformed stream event ({0} so far)", malformed);
                return List.of();
            }
            ErrorObject error = ErrorObject.in(chunk);
            if (error != null) {
                throw new ProviderException(new ProviderFailure(OpenAiClassifier.classify(0, error.type(), error.code()),
                        0, error.type(), error.code(), context.redact("error event in stream"
                        + (error.code() != null ? " " + error.code() : "") + error.suffix()), null));
            }
            if (OpenAiShape.finishReason(chunk) != null) {
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
