package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.impl.config.PolicyOverride;

import java.util.Objects;

/**
 * One request to the engine, with what the caller adds to it.
 *
 * @param request       what to send
 * @param policy        a caller's policy over the route's ({@code @FailoverPolicy}), or {@link PolicyOverride#NONE}
 * @param callerRetried the caller sent this request again after a failure of its own (an SDK's
 *                      {@code X-Stainless-Retry-Count}): it spends the retry budget like one of Baton's retries
 * @param caller        the gateway key that sent it (its record's {@code caller}, the cost metric's), or {@code null}
 * @param api           the API the request's body speaks: for {@link Api#RESPONSES} and {@link Api#EMBEDDINGS},
 *                      {@code request} carries that API's body with Baton's own fields beside it
 */
public record Call(ChatRequest request, PolicyOverride policy, boolean callerRetried, String caller, Api api) {

    public Call {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(api, "api");
    }

    /** A chat-completions call. */
    public Call(ChatRequest request, PolicyOverride policy, boolean callerRetried, String caller) {
        this(request, policy, callerRetried, caller, Api.CHAT);
    }

    /** {@code request} under its route's configured policy, from no named caller. */
    public static Call of(ChatRequest request) {
        return new Call(request, PolicyOverride.NONE, false, null);
    }

    public Call withRequest(ChatRequest newRequest) {
        return new Call(newRequest, policy, callerRetried, caller, api);
    }

    public Call withPolicy(PolicyOverride newPolicy) {
        return new Call(request, newPolicy, callerRetried, caller, api);
    }

    public Call withCallerRetried(boolean retried) {
        return new Call(request, policy, retried, caller, api);
    }

    public Call withCaller(String newCaller) {
        return new Call(request, policy, callerRetried, newCaller, api);
    }

    public Call withApi(Api newApi) {
        return new Call(request, policy, callerRetried, caller, newApi);
    }
}
