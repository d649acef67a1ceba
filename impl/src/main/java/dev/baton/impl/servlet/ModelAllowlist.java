package dev.baton.impl.servlet;

import dev.baton.ChatRequest;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.config.BatonConfig;

import java.util.List;
import java.util.Set;

/**
 * The gateway key's permissions: the endpoint's model allowlist, then the caller's named key's. A configured route or
 * model the caller may not use is refused with 403 (an unknown one stays a 404 from the engine); fallbacks it may not
 * use are dropped, never routed around the policy. An empty list allows everything. Whether the key itself is valid
 * was settled by {@link GatewayFilter} before the body was read.
 */
final class ModelAllowlist implements GatewayStep {

    private final Set<String> endpointAllows;
    private final BatonConfig config;

    ModelAllowlist(Set<String> endpointAllows, BatonConfig config) {
        this.endpointAllows = Set.copyOf(endpointAllows);
        this.config = config;
    }

    @Override
    public Reply handle(GatewayCall call, Next next) {
        ChatRequest request;
        try {
            request = allowed(call.request(), endpointAllows);
            if (call.key() != null) {
                request = allowed(request, call.key().allowedModels());
            }
        } catch (RequestRejectedException e) {
            return Reply.Answered.now(Responses.failure(e, call.refusalId()));
        }
        return next.proceed(request == call.request() ? call : call.withRequest(request));
    }

    private ChatRequest allowed(ChatRequest request, Set<String> allowed) {
        if (allowed.isEmpty()) {
            return request;
        }
        String model = request.model();
        if (model != null && !allowed.contains(model) && known(model)) {
            throw Rejections.modelNotAllowed(model);
        }
        if (request.fallbacks().isEmpty()) {
            return request;
        }
        List<String> fallbacks = request.fallbacks().stream().filter(f -> allowed.contains(f) || !known(f)).toList();
        return fallbacks.size() == request.fallbacks().size() ? request : request.withFallbacks(fallbacks);
    }

    private boolean known(String model) {
        return config.routes().containsKey(model) || config.serves(model);
    }
}
