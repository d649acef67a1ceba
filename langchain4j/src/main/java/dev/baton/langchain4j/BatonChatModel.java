package dev.baton.langchain4j;

import dev.baton.FailoverChatService;
import dev.baton.exception.FailoverException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * A LangChain4j {@link ChatModel} that sends every request through one Baton route: failover across
 * the route's accounts and providers happens inside {@link #chat}, invisibly, and the answer's
 * {@link BatonResponseMetadata} says who served. Failures are LangChain4j's exception types with
 * Baton's {@link FailoverException} as the cause.
 *
 * <p>Calls run on the caller's thread, so a {@code @FailoverPolicy} on the calling business method
 * applies. Thread-safe.
 */
public final class BatonChatModel extends RouteModel implements ChatModel {

    private BatonChatModel(ModelSettings settings) {
        super(settings);
    }

    /** A model for {@code route}; {@code service} is usually the injected {@code @Route(route) FailoverChatService}. */
    public static BatonChatModel of(FailoverChatService service, String route) {
        return builder(service, route).build();
    }

    public static Builder builder(FailoverChatService service, String route) {
        return new Builder(service, route);
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        dev.baton.ChatRequest batonRequest = BatonRequests.toBaton(request, settings.route(), false);
        try {
            return BatonResponses.fromBaton(settings.service().complete(batonRequest));
        } catch (FailoverException e) {
            throw BatonExceptions.toLangChain4j(e);
        }
    }

    public static final class Builder extends ModelSettings.Builder<Builder> {
        private Builder(FailoverChatService service, String route) {
            super(service, route);
        }

        public BatonChatModel build() {
            return new BatonChatModel(settings());
        }
    }
}
