package dev.baton.impl.anthropic;

import dev.baton.FailureKind;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.wire.RawJsonObject;
import dev.baton.wire.RetryAfter;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;

/**
 * Anthropic's error responses, {@code {"type":"error","error":{"type","message","details":{"error_code"}}}}, read
 * and classified by {@link AnthropicClassifier}, for every adapter that meets them (Anthropic's API, Claude on Vertex
 * AI). Thread-safe.
 */
public final class AnthropicErrors {

    private final AdapterContext context;

    public AnthropicErrors(AdapterContext context) {
        this.context = context;
    }

    /** The classified failure of an error response; a body that is no Anthropic error is classified by its status. */
    public ProviderException failure(int status, String body, ResponseHeaders headers) {
        String type = null;
        String message = null;
        String errorCode = null;
        try {
            JsonObject error = RawJsonObject.parse(body).getJsonObject("error");
            if (error != null) {
                type = text(error.get("type"));
                message = text(error.get("message"));
                if (error.get("details") instanceof JsonObject details) {
                    errorCode = text(details.get("error_code"));
                }
            }
        } catch (JsonException | ClassCastException | IllegalStateException e) {
            // a proxy's HTML page: the status alone classifies it
        }
        Duration retryAfter = RetryAfter.parse(headers, context.clock().instant());
        FailureKind kind = AnthropicClassifier.classify(status, type, errorCode, message);
        String detail = "HTTP " + status + (type != null ? " " + type : "") + (errorCode != null ? " " + errorCode : "")
                + (message != null ? ": " + message : "");
        return new ProviderException(new ProviderFailure(kind, status, type, errorCode, context.redact(detail),
                retryAfter));
    }

    private static String text(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : null;
    }
}
