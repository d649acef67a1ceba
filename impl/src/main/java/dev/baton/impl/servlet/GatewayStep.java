package dev.baton.impl.servlet;

/**
 * One of the gateway's concerns around the engine (see {@link Gateway} for the list and its order). A step either
 * answers the call itself (a refusal, a replay) or passes it, perhaps changed, to {@code next} and may act on what
 * comes back. A step never blocks: what it waits for, it chains onto. Implementations are thread-safe.
 */
@FunctionalInterface
interface GatewayStep {

    Reply handle(GatewayCall call, Next next);

    /** The rest of the chain after a step. */
    @FunctionalInterface
    interface Next {
        Reply proceed(GatewayCall call);
    }
}
