package dev.baton.spi;

import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Speaks one provider's wire format. Adapters only translate and classify: they never retry,
 * wait or choose a target; the engine does. One instance, created by its {@link ProviderAdapterFactory}, serves every
 * connection of its provider kind. Implementations must be thread-safe and must not block the calling thread: send
 * through {@link AdapterContext#transport()}.
 *
 * <p>Every failure is a {@link ProviderException} whose {@link ProviderFailure} was classified by
 * the adapter's own table (a pure function of status, error type, error code and headers).
 * Messages never contain the credential.
 */
public interface ProviderAdapter {

    /**
     * Sends a non-streaming request. {@code body} is an OpenAI chat-completions body with
     * {@code model} already set to the target's model and {@code stream} false. The future
     * completes with an OpenAI {@code chat.completion} object. Cancelling the future aborts the
     * exchange.
     *
     * @param headersTimeout how long to wait for the response headers
     */
    CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout);

    /**
     * Opens a stream when subscribed to. Emits OpenAI {@code chat.completion.chunk} objects;
     * completes only when the provider said the answer is complete (a {@code finish_reason}
     * followed by {@code [DONE]} or the end of the body); any other end is an error. Malformed
     * events are skipped. Cancelling the subscription aborts the exchange.
     */
    Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout);
}
