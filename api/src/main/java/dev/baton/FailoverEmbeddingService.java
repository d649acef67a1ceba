package dev.baton;

import java.util.concurrent.CompletionStage;

/**
 * Sends embeddings requests through the accounts that serve the request's model, failing over between them as chat
 * requests do (classified failures, ejection, 429 parking, bounded retries, budgets, a record of every attempt). It
 * never falls back to another model: vectors from two models are not comparable.
 *
 * <p>Thread-safe. Inject it with {@code @Inject FailoverEmbeddingService embeddings;}; {@code @Route} and
 * {@code @FailoverPolicy} apply as they do to {@link FailoverChatService}.
 */
public interface FailoverEmbeddingService {

    /** Blocks until an account answered or every one failed; not for a thread an event loop depends on. */
    EmbeddingResponse embed(EmbeddingRequest request);

    /** Like {@link #embed} without blocking the caller's thread. */
    CompletionStage<EmbeddingResponse> embedAsync(EmbeddingRequest request);
}
