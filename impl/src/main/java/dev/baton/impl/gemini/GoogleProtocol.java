package dev.baton.impl.gemini;

import dev.baton.FailureKind;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.spi.ProviderTransport.StreamEvents;
import dev.baton.wire.RetryAfter;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;

/**
 * What Google adds to a wire another adapter reads: its error shape on error responses and inside streams, and its
 * retry hint. Shared by the gemini adapter and the vertex module. Thread-safe.
 */
public final class GoogleProtocol {

    private final AdapterContext context;

    public GoogleProtocol(AdapterContext context) {
        this.context = context;
    }

    /**
     * The classified failure of a Google-shaped error response, or {@code null} when {@code body} is not one (the
     * caller's own wire then reads it). The retry hint is the {@code Retry-After} header when sent, else the body's
     * {@code RetryInfo.retryDelay}.
     */
    public ProviderException failure(int status, String body, ResponseHeaders headers) {
        GoogleError error = GoogleError.parse(body);
        if (error == null) {
            return null;
        }
        Duration retryAfter = RetryAfter.parse(headers, context.clock().instant());
        if (retryAfter == null) {
            retryAfter = error.retryDelay();
        }
        return new ProviderException(new ProviderFailure(GoogleClassifier.classify(status, error.status(),
                error.reason()), status, error.status(), error.reason(), context.redact(error.describe(status)),
                retryAfter));
    }

    /** {@code events}, but a Google-shaped error event fails the stream as Google's table says. */
    public StreamEvents events(StreamEvents events) {
        return new StreamEvents() {
            @Override
            public List<JsonObject> onEvent(Event event) {
                String data = event.data();
                // Cheap test first: every chunk passes here, and only an error has a "status" member.
                if (data.contains("\"status\"") && data.contains("\"error\"")) {
                    GoogleError error = GoogleError.parse(data);
                    if (error != null) {
                        FailureKind kind = GoogleClassifier.classify(0, error.status(), error.reason());
                        throw new ProviderException(new ProviderFailure(kind, 0, error.status(), error.reason(),
                                context.redact("error event in stream: " + error.describe(error.code())),
                                error.retryDelay()));
                    }
                }
                return events.onEvent(event);
            }

            @Override
            public boolean done() {
                return events.done();
            }

            @Override
            public boolean completeAtEnd() {
                return events.completeAtEnd();
            }
        };
    }
}
