package dev.baton.spi;

import dev.baton.FailureKind;
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
     * {@code model} already set to the target's model and {@code stream} false or absent. The future
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

    /**
     * Whether {@code target} takes OpenAI Responses API requests as they are ({@link #respond}, {@link #streamResponse}).
     * When it does not, Baton translates a Responses request to chat completions for it and the answer back.
     */
    default boolean speaksResponses(ProviderTarget target) {
        return false;
    }

    /**
     * Sends a Responses API request as it is: {@code body} has {@code model} set to the target's model and
     * {@code stream} false or absent; the future completes with the {@code response} object. Called only when
     * {@link #speaksResponses} said yes.
     */
    default CompletableFuture<JsonObject> respond(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(target.provider()
                + " does not speak the Responses API"));
    }

    /**
     * Opens a Responses API event stream as it is, when subscribed to. Emits the typed events (each with its
     * {@code type}); completes only after {@code response.completed} or {@code response.incomplete}; an {@code error}
     * event or {@code response.failed} fails it. Called only when {@link #speaksResponses} said yes.
     */
    default Flow.Publisher<JsonObject> streamResponse(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        throw new UnsupportedOperationException(target.provider() + " does not speak the Responses API");
    }

    /**
     * Sends an OpenAI embeddings request ({@code model} set to the target's model); the future completes with the
     * {@code list} of embeddings, whose {@code data} must be the provider's as sent. By default the provider serves no
     * embeddings and the attempt fails as {@code model_not_served}, so that the engine tries another connection.
     */
    default CompletableFuture<JsonObject> embed(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        return CompletableFuture.failedFuture(new ProviderException(new ProviderFailure(FailureKind.MODEL_NOT_SERVED,
                0, null, "embeddings_not_served", target.provider() + " serves no embeddings", null)));
    }
}
