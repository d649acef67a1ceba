package dev.baton.impl.servlet;

import dev.baton.impl.concurrent.Futures;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A non-streaming request with an {@code Idempotency-Key} goes through {@link IdempotencyCache}: a repeat gets the
 * first answer instead of a second provider call. The owner of the key runs it and settles the key; a repeat attaches
 * to the owner's answer; neither blocks a thread. In a cluster the node that owns the key locally claims it in the
 * cluster store too ({@link SharedIdempotency}). The owner's request is not cancelled when its caller goes away: its
 * answer is exactly what that caller's retry with the same key will want.
 *
 * <p>A stream cannot be replayed (its caller consumed it as it was produced, and keeping every chunk would hold a
 * whole answer per key), so a streaming request with the header is refused.
 */
final class Idempotency implements GatewayStep {

    static final String HEADER = "Idempotency-Key";
    static final int MAX_KEY_CHARS = 255;

    private final IdempotencyCache cache;
    /** The cluster's idempotency keys, or {@code null} on a node alone. */
    private final SharedIdempotency shared;

    Idempotency(IdempotencyCache cache, SharedIdempotency shared) {
        this.cache = cache;
        this.shared = shared;
    }

    @Override
    public Reply handle(GatewayCall call, Next next) {
        if (call.idempotencyKey() == null) {
            return next.proceed(call);
        }
        if (call.request().stream()) {
            return Reply.Answered.now(Responses.failure(Rejections.streamWithIdempotencyKey(), call.refusalId()));
        }
        byte[] bodyHash = GatewayKeys.sha256(call.body());
        IdempotencyCache.Claim claim = cache.claim(call.caller(), call.idempotencyKey(), bodyHash);
        if (claim instanceof IdempotencyCache.Conflict) {
            return Reply.Answered.now(keyReused(call.refusalId()));
        }
        if (claim instanceof IdempotencyCache.Attached repeat) {
            return new Reply.Answered(repeat.answer().exceptionally(e -> Responses.failure(e, call.refusalId())));
        }
        IdempotencyCache.Owner owner = (IdempotencyCache.Owner) claim;
        if (shared == null) {
            return new Reply.Answered(run(call, next, owner, null));
        }
        // The owner here; in a cluster, another node may own the key.
        return new Reply.Answered(shared.claim(call.caller(), call.idempotencyKey(), bodyHash)
                .handle((outcome, error) -> {
                    if (outcome instanceof SharedIdempotency.Replay replay) {
                        owner.settle(replay.answer());
                        return CompletableFuture.completedFuture(replay.answer().replayed());
                    }
                    if (outcome instanceof SharedIdempotency.Conflict) {
                        Answer refusal = keyReused(call.refusalId());
                        owner.settle(refusal);
                        return CompletableFuture.completedFuture(refusal);
                    }
                    boolean claimed = outcome instanceof SharedIdempotency.Run run && run.claimed();
                    return run(call, next, owner, claimed ? bodyHash : null);
                }).thenCompose(answer -> answer));
    }

    /**
     * Runs a request this node owns and settles its key; {@code claimedHash} is the body hash when the cluster holds
     * the key for this node, else {@code null}.
     */
    private CompletionStage<Answer> run(GatewayCall call, Next next, IdempotencyCache.Owner owner, byte[] claimedHash) {
        CompletionStage<Answer> answer;
        try {
            answer = answerOf(next.proceed(call), call.refusalId());
        } catch (RuntimeException e) {
            answer = CompletableFuture.completedFuture(Responses.failure(e, call.refusalId())); // the key must settle
        }
        return answer.thenApply(result -> {
            owner.settle(result);
            if (claimedHash != null) {
                shared.settle(call.caller(), call.idempotencyKey(), claimedHash, result);
            }
            return result;
        });
    }

    /** The rest of the chain's reply in HTTP form, which is what a repeat is given. */
    private static CompletionStage<Answer> answerOf(Reply reply, String refusalId) {
        if (reply instanceof Reply.Answered answered) {
            return answered.answer();
        }
        if (reply instanceof Reply.Completed completed) {
            return completed.response().handle((ok, error) -> error == null ? Responses.success(ok)
                    : Responses.failure(Futures.unwrap(error), refusalId));
        }
        throw new IllegalStateException("a non-streaming request was answered with a stream");
    }

    private static Answer keyReused(String refusalId) {
        return Responses.failure(Rejections.idempotencyKeyReused(), refusalId);
    }
}
