package dev.baton.langchain4j;

import dev.baton.FailoverChatService;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

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
public final class BatonStreamingChatModel extends RouteModel implements StreamingChatModel {

    private BatonStreamingChatModel(ModelSettings settings) {
        super(settings);
    }

    /** A model for {@code route}; {@code service} is usually the injected {@code @Route(route) FailoverChatService}. */
    public static BatonStreamingChatModel of(FailoverChatService service, String route) {
        return builder(service, route).build();
    }

    public static Builder builder(FailoverChatService service, String route) {
        return new Builder(service, route);
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

    public static final class Builder extends ModelSettings.Builder<Builder> {
        private Builder(FailoverChatService service, String route) {
            super(service, route);
        }

        public BatonStreamingChatModel build() {
            return new BatonStreamingChatModel(settings());
        }
    }
}
