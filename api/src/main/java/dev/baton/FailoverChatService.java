package dev.baton;

import dev.baton.record.RequestRecord;

import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Sends chat requests through a route of provider accounts and models, failing over before the
 * first output reaches the caller and leaving a record of every attempt.
 *
 * <p>The request's {@code model} names either a route or a model served by configured
 * connections. Every method may fail with a {@link dev.baton.exception.FailoverException}; the
 * exception says which HTTP status an OpenAI-compatible client would see, whether a later retry
 * can help and, when a provider was called, carries the {@link RequestRecord}.
 *
 * <p>Thread-safe. Inject it with {@code @Inject FailoverChatService chat;}.
 */
public interface FailoverChatService {

    /**
     * Blocks until a target answered or every eligible target failed. Meant for EJB and plain CDI
     * callers; never call it from a thread that an event loop depends on.
     */
    ChatResponse complete(ChatRequest request);

    /** Like {@link #complete} without blocking the caller's thread. */
    CompletionStage<ChatResponse> completeAsync(ChatRequest request);

    /**
     * A cold publisher of completion chunks. Failover happens before the first chunk that carries
     * output (the commit point); after it a failure ends the stream with
     * {@link dev.baton.exception.StreamInterruptedException} and nothing is restarted. Cancelling
     * the subscription aborts the upstream exchange. The publisher accepts one subscriber.
     */
    Flow.Publisher<ChatChunk> stream(ChatRequest request);

    /**
     * Sends a Responses API request and blocks until a target answered or every eligible target failed. Targets that
     * do not speak the Responses API get it translated; see {@link ResponseRequest}.
     */
    default ResponseResult respond(ResponseRequest request) {
        throw new UnsupportedOperationException("this FailoverChatService does not serve the Responses API");
    }

    /** Like {@link #respond} without blocking the caller's thread. */
    default CompletionStage<ResponseResult> respondAsync(ResponseRequest request) {
        throw new UnsupportedOperationException("this FailoverChatService does not serve the Responses API");
    }

    /**
     * A cold publisher of a Responses API answer's events, failing over until the first event that carries output and
     * ending with {@link dev.baton.exception.StreamInterruptedException} after it, as {@link #stream} does.
     */
    default Flow.Publisher<ResponseEvent> streamResponse(ResponseRequest request) {
        throw new UnsupportedOperationException("this FailoverChatService does not serve the Responses API");
    }

    /** The record of an earlier request, while the record store still holds it. */
    Optional<RequestRecord> findRecord(String requestId);
}
