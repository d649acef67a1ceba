package dev.baton.impl.cdi;

import dev.baton.impl.concurrent.Publishers;
import dev.baton.impl.engine.Api;
import dev.baton.impl.engine.Call;
import jakarta.json.spi.JsonProvider;
import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.EmbeddingRequest;
import dev.baton.EmbeddingResponse;
import dev.baton.FailoverChatService;
import dev.baton.FailoverEmbeddingService;
import dev.baton.ResponseEvent;
import dev.baton.ResponseRequest;
import dev.baton.ResponseResult;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.record.RequestRecord;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The {@link FailoverChatService} or {@link FailoverEmbeddingService} an application injects: the shared engine, bound
 * to the injection point's route and policy. A business method's {@code @FailoverPolicy}, when one is
 * running, replaces the injection point's.
 */
final class BoundChatService implements FailoverChatService, FailoverEmbeddingService {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private final BatonChatService service;
    private final String route;
    private final PolicyOverride policy;
    private final String site;

    /**
     * @param route  the {@code @Route}, or {@code null}
     * @param policy the injection point's policy
     * @param site   where it was injected, for messages
     */
    BoundChatService(BatonChatService service, String route, PolicyOverride policy, String site) {
        this.service = service;
        this.route = route;
        this.policy = Objects.requireNonNull(policy);
        this.site = site;
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        service.transactions().warnIfActive(site);
        return service.complete(bind(request), policy());
    }

    @Override
    public CompletionStage<ChatResponse> completeAsync(ChatRequest request) {
        try {
            return service.engine().complete(Call.of(bind(request)).withPolicy(policy()));
        } catch (RequestRejectedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public Flow.Publisher<ChatChunk> stream(ChatRequest request) {
        try {
            return service.engine().stream(Call.of(bind(request)).withPolicy(policy()));
        } catch (RequestRejectedException e) {
            return Publishers.failed(e); // like every other refusal of a stream: through onError
        }
    }

    @Override
    public ResponseResult respond(ResponseRequest request) {
        service.transactions().warnIfActive(site);
        return BatonChatService.await(respondAsync(request).toCompletableFuture(), request.model());
    }

    @Override
    public CompletionStage<ResponseResult> respondAsync(ResponseRequest request) {
        try {
            return service.engine().complete(call(Api.RESPONSES, responses(request)))
                    .thenApply(r -> new ResponseResult(r.body(), r.servedBy(), r.requestId(), r.cost()));
        } catch (RequestRejectedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public Flow.Publisher<ResponseEvent> streamResponse(ResponseRequest request) {
        try {
            return Publishers.flatMap(service.engine().stream(call(Api.RESPONSES, responses(request))),
                    chunk -> List.of(new ResponseEvent(chunk.body(), chunk.servedBy(), chunk.requestId())), List::of);
        } catch (RequestRejectedException e) {
            return Publishers.failed(e);
        }
    }

    @Override
    public EmbeddingResponse embed(EmbeddingRequest request) {
        service.transactions().warnIfActive(site);
        return BatonChatService.await(embedAsync(request).toCompletableFuture(), request.model());
    }

    @Override
    public CompletionStage<EmbeddingResponse> embedAsync(EmbeddingRequest request) {
        try {
            ChatRequest envelope = ChatRequest.fromJson(request.body());
            envelope = request.timeout().map(envelope::withTimeout).orElse(envelope);
            return service.engine().complete(call(Api.EMBEDDINGS, bind(envelope)))
                    .thenApply(r -> new EmbeddingResponse(r.body(), r.servedBy(), r.requestId(), r.cost()));
        } catch (RequestRejectedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A Responses request in the engine's envelope: its body, with Baton's fallbacks, deadline and session beside. */
    private ChatRequest responses(ResponseRequest request) {
        ChatRequest envelope = ChatRequest.fromJson(request.body()).withFallbacks(request.fallbacks())
                .withSession(request.session().orElse(null));
        return bind(request.timeout().map(envelope::withTimeout).orElse(envelope));
    }

    private Call call(Api api, ChatRequest request) {
        return new Call(request, policy(), false, null, api);
    }

    @Override
    public Optional<RequestRecord> findRecord(String requestId) {
        return service.findRecord(requestId);
    }

    private PolicyOverride policy() {
        PolicyOverride method = PolicyScope.current();
        return method != null ? method : policy;
    }

    /** Sends the request to the bound route; a request naming anything else is a programming error. */
    private ChatRequest bind(ChatRequest request) {
        if (route == null) {
            return request;
        }
        String model = request.model();
        if (model != null && !model.equals(route)) {
            throw RequestRejectedException.invalidRequest("this FailoverChatService is bound to the route `" + route
                    + "` (@Route at " + site + ") but the request names `" + model + "`; leave model out", "model");
        }
        return model != null ? request
                : request.withBody(JSON.createObjectBuilder(request.body()).add("model", route).build());
    }

    @Override
    public String toString() {
        return "FailoverChatService[route=" + route + ", policy=" + policy.origin() + "]";
    }
}
