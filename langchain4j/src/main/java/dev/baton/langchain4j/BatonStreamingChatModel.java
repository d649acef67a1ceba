package dev.baton.langchain4j;

import dev.baton.FailoverChatService;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

import java.util.List;
import java.util.Set;

/**
 * A LangChain4j {@link StreamingChatModel} over one Baton route. Baton fails over until the first
 * output (the commit point), so a failing primary is invisible to the handler; after it, a broken
 * stream ends in {@code onError} (an {@code InternalServerException}, or a {@code TimeoutException}
 * for a stalled one, caused by Baton's {@code StreamInterruptedException}), never in
 * {@code onCompleteResponse}. Every failure, a refused request included, reaches {@code onError}.
 *
 * <p>{@link #chat} returns at once; the handler is called on Baton's HTTP I/O threads, so it must not
 * block. The request is bound on the caller's thread, so a {@code @FailoverPolicy} on the calling
 * business method applies. Thread-safe.
 */
public final class BatonStreamingChatModel implements StreamingChatModel {

    private final ModelSettings settings;

    private BatonStreamingChatModel(ModelSettings settings) {
        this.settings = settings;
    }

    /** A model for {@code route}; {@code service} is usually the injected {@code @Route(route) FailoverChatService}. */
    public static BatonStreamingChatModel of(FailoverChatService service, String route) {
        return builder(service, route).build();
    }

    public static Builder builder(FailoverChatService service, String route) {
        return new Builder(service, route);
    }

    /** The route every request goes to. */
    public String route() {
        return settings.route();
    }

    @Override
    public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        StreamAssembler assembler = new StreamAssembler(handler);
        try {
            settings.service().stream(BatonRequests.toBaton(request, settings.route(), true)).subscribe(assembler);
        } catch (RuntimeException refused) {
            assembler.onError(refused); // a request that cannot be mapped or sent: through onError like any failure
        }
    }

    @Override
    public ChatRequestParameters defaultRequestParameters() {
        return settings.defaults();
    }

    @Override
    public List<ChatModelListener> listeners() {
        return settings.listeners();
    }

    @Override
    public ModelProvider provider() {
        return ModelProvider.OTHER;
    }

    @Override
    public Set<Capability> supportedCapabilities() {
        return settings.capabilities();
    }

    @Override
    public String toString() {
        return "BatonStreamingChatModel[route=" + settings.route() + "]";
    }

    public static final class Builder extends ModelSettings.Builder<Builder> {
        private Builder(FailoverChatService service, String route) {
            super(service, route);
        }

        public BatonStreamingChatModel build() {
            return new BatonStreamingChatModel(settings());
        }
    }
}
