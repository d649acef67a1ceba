package dev.baton.impl.servlet;

import dev.baton.ChatRequest;
import dev.baton.impl.engine.Api;

/**
 * One request on its way through the {@link Gateway}: what the servlet read from HTTP, and who sent it. A step
 * changes the request with {@link #withRequest}; everything else is fixed when the body has been read. Immutable
 * (the body is not copied: nothing writes to it).
 *
 * @param request        the request, with the caller's hints (session, timeout) applied; for the Responses API and
 *                       embeddings it carries that API's body
 * @param api            which API the request speaks
 * @param callerRetried  whether the caller says this is its own retry ({@code x-stainless-retry-count > 0})
 * @param caller         who is calling, without its key: the scope of its idempotency keys
 * @param key            the caller's named key, or {@code null} when it sent an unnamed one or none
 * @param idempotencyKey the {@code Idempotency-Key} header, or {@code null}
 * @param body           the request body as received, for the idempotency key's body hash
 * @param refusalId      the request id of an answer the engine never saw
 */
record GatewayCall(ChatRequest request, Api api, boolean callerRetried, String caller, NamedKey key,
                   String idempotencyKey, byte[] body, String refusalId) {

    GatewayCall withRequest(ChatRequest changed) {
        return new GatewayCall(changed, api, callerRetried, caller, key, idempotencyKey, body, refusalId);
    }

    /** The named key's name, which the engine records as the caller; {@code null} for any other caller. */
    String keyName() {
        return key == null ? null : key.name();
    }
}
