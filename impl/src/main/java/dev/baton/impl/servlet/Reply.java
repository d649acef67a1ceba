package dev.baton.impl.servlet;

import dev.baton.ChatChunk;
import dev.baton.impl.engine.Api;
import dev.baton.ChatResponse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** What the {@link Gateway} gives the servlet to write: one of three shapes, each written its own way. */
sealed interface Reply {

    /**
     * An answer already in its HTTP form, now or later: a refusal, a replay, an idempotent request's settled answer.
     * It completes normally. The caller going away cancels nothing: a replayed or settled answer is wanted by others.
     */
    record Answered(CompletionStage<Answer> answer) implements Reply {
        static Answered now(Answer answer) {
            return new Answered(CompletableFuture.completedFuture(answer));
        }
    }

    /** The engine's answer to a non-streaming request; cancelling it stops the attempt in flight. */
    record Completed(CompletableFuture<ChatResponse> response) implements Reply {
    }

    /** A stream, relayed from its first output event (the commit point), in the SSE framing of its {@code api}. */
    record Streamed(Flow.Publisher<ChatChunk> chunks, Api api) implements Reply {
    }
}
