package dev.baton.sample;

import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.concurrent.Future;

/**
 * The same drafts from a stateless EJB: Baton's service injects into EJBs like into any CDI bean.
 *
 * <p>A {@code FailoverException} is a runtime exception, so a blocking call sees it wrapped in an
 * {@code EJBException}; from the asynchronous methods it arrives as the cause of an {@code ExecutionException}.
 */
@Stateless
public class DraftsBean {

    @Inject
    FailoverChatService chat;

    /** Blocking: the draft text. */
    public String draft(String topic) {
        return chat.complete(DraftService.request(topic)).content();
    }

    /** Asynchronous: the draft text; the container returns at once and Baton works without holding a thread. */
    @Asynchronous
    public Future<String> draftAsync(String topic) {
        return chat.completeAsync(DraftService.request(topic)).thenApply(ChatResponse::content).toCompletableFuture();
    }

    /** Asynchronous, with the whole response (what served it, the request id). */
    @Asynchronous
    public Future<ChatResponse> replyAsync(String topic) {
        return chat.completeAsync(DraftService.request(topic)).toCompletableFuture();
    }
}
