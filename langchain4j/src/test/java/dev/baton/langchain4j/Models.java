package dev.baton.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs one request through either model the same way, so every scenario is asserted on both. */
enum Models {
    BLOCKING, STREAMING;

    /** What the caller saw: the answer or the failure, and for a stream its pieces and how it ended. */
    record Outcome(ChatResponse response, Throwable failure, List<String> partials, int ends) {
        ChatResponse answer() {
            if (failure != null) {
                throw new AssertionError("expected an answer but got " + failure, failure);
            }
            return response;
        }
    }

    Outcome call(ChatModel blocking, StreamingChatModel streaming, ChatRequest request) {
        if (this == BLOCKING) {
            try {
                return new Outcome(blocking.chat(request), null, List.of(), 1);
            } catch (RuntimeException e) {
                return new Outcome(null, e, List.of(), 1);
            }
        }
        List<String> partials = new CopyOnWriteArrayList<>();
        AtomicInteger ends = new AtomicInteger();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        streaming.chat(request, new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                partials.add(partial);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                ends.incrementAndGet();
                done.complete(response);
            }

            @Override
            public void onError(Throwable error) {
                ends.incrementAndGet();
                done.completeExceptionally(error);
            }
        });
        try {
            ChatResponse response = done.get(20, TimeUnit.SECONDS);
            settle();
            return new Outcome(response, null, partials, ends.get());
        } catch (ExecutionException e) {
            settle();
            return new Outcome(null, e.getCause(), partials, ends.get());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("the stream neither completed nor failed within 20 s", e);
        }
    }

    /** Gives a wrong second end (onError after onCompleteResponse, or the reverse) time to show. */
    private static void settle() {
        try {
            Thread.sleep(150);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
