package dev.baton.sample;

import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.Route;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.util.concurrent.Future;

/**
 * The same drafts from a stateless EJB. Baton's exceptions are application exceptions, so they
 * reach the caller as thrown (not wrapped in {@code EJBException}); from the asynchronous methods
 * they arrive as the cause of an {@code ExecutionException}.
 *
 * <p>{@code NOT_SUPPORTED}: no transaction is held open while Baton waits and fails over. With the
 * default ({@code REQUIRED}) a blocking call would keep the transaction, and any locks it holds,
 * for up to the route's deadline.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DraftsBean {

    @Inject
    @Route("demo")
    FailoverChatService drafts;

    /** Blocking: the draft text. */
    public String draft(String topic) {
        return drafts.complete(DraftService.request(topic)).content();
    }

    /** Asynchronous: the container returns at once, and Baton works without holding the EJB thread. */
    @Asynchronous
    public Future<String> draftAsync(String topic) {
        return drafts.completeAsync(DraftService.request(topic)).thenApply(ChatResponse::content).toCompletableFuture();
    }

    /** Asynchronous, with the whole response (what served it, the request id). */
    @Asynchronous
    public Future<ChatResponse> replyAsync(String topic) {
        return drafts.completeAsync(DraftService.request(topic)).toCompletableFuture();
    }
}
