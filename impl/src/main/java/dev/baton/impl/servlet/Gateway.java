package dev.baton.impl.servlet;

import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.engine.Api;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.FailoverEngine;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The gateway's concerns around the engine, as one chain. {@link #of} lists the steps in the order they run; the
 * servlet only reads the call from HTTP, hands it here, and writes the {@link Reply}. Thread-safe.
 */
final class Gateway {

    private final List<GatewayStep> steps;
    private final GatewayStep.Next engine;

    Gateway(List<GatewayStep> steps, GatewayStep.Next engine) {
        this.steps = List.copyOf(steps);
        this.engine = engine;
    }

    /**
     * The chain, in order. Each step sees what the ones before it let through:
     * <ol>
     *   <li>{@link RequestLimits}: what no provider should be billed for ({@code n}, token limits, over-long model
     *   names) is refused (400);</li>
     *   <li>{@link ModelAllowlist}: the endpoint's and the caller's key's model allowlists (403);</li>
     *   <li>{@link Idempotency}: a repeated {@code Idempotency-Key} gets the first answer, never a second call (nor a
     *   second charge);</li>
     *   <li>the engine: plans, holds the call's worst case against the key's and route's budgets (402 when it does
     *   not fit), attempts, charges what was served, answers, and saves the request's record.</li>
     * </ol>
     */
    static Gateway of(RequestLimits limits, ModelAllowlist allowlist, Idempotency idempotency, FailoverEngine engine) {
        return new Gateway(List.of(limits, allowlist, idempotency), call -> send(engine, call));
    }

    Reply handle(GatewayCall call) {
        return proceed(0, call);
    }

    private Reply proceed(int step, GatewayCall call) {
        return step == steps.size() ? engine.proceed(call)
                : steps.get(step).handle(call, next -> proceed(step + 1, next));
    }

    /** The last link: the engine, which records every request it admits. */
    private static Reply send(FailoverEngine engine, GatewayCall gatewayCall) {
        Call call = new Call(gatewayCall.request(), PolicyOverride.NONE, gatewayCall.callerRetried(),
                gatewayCall.keyName(), gatewayCall.api());
        if (gatewayCall.request().stream() && call.api() != Api.EMBEDDINGS) {
            return new Reply.Streamed(engine.stream(call), call.api());
        }
        try {
            return new Reply.Completed(engine.complete(call));
        } catch (RuntimeException e) {
            return new Reply.Completed(CompletableFuture.failedFuture(e)); // an idempotency key's owner must settle
        }
    }
}
