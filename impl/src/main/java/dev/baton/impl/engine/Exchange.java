package dev.baton.impl.engine;

import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.impl.concurrent.Publishers;
import dev.baton.impl.translate.ResponsesRequests;
import dev.baton.impl.translate.ResponsesWriting;
import dev.baton.impl.translate.UntranslatableRequestException;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import dev.baton.wire.OpenAiShape;
import dev.baton.wire.ResponsesShape;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * What an attempt sends for the call's {@link Api}, and what the modes read from what comes back: whether an event
 * carries output (the commit point), whether it ends the answer, and its usage in the chat shape that prices and
 * records read. The one place where the engine knows one API from another. Thread-safe.
 */
abstract class Exchange {

    /** The exchange of a call of {@code api}; {@code requestId} names a translated Responses answer. */
    static Exchange of(Api api, String requestId, long createdAtSeconds) {
        return switch (api) {
            case CHAT -> Chat.INSTANCE;
            case EMBEDDINGS -> Embeddings.INSTANCE;
            case RESPONSES -> new Responses("resp_" + requestId.substring(requestId.indexOf('_') + 1), createdAtSeconds);
        };
    }

    abstract CompletableFuture<JsonObject> complete(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                                    Duration headersTimeout);

    abstract Flow.Publisher<JsonObject> stream(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                               Duration headersTimeout);

    /** The usage of an answer or of a stream's event, in the chat shape; {@code null} when it carries none. */
    abstract JsonObject usage(JsonObject answerOrEvent);

    /** Whether a stream's event carries output: the first one commits the stream. */
    abstract boolean hasOutput(JsonObject event);

    /** Whether a stream's event says the answer is whole (a finish reason, {@code response.completed}). */
    abstract boolean finishes(JsonObject event);

    /** A stream's usage event with Baton's estimate in it, as a whole answer has. */
    JsonObject withCost(JsonObject event, Cost cost) {
        return event;
    }

    private final Api api;

    private Exchange(Api api) {
        this.api = api;
    }

    Api api() {
        return api;
    }

    /** Whether a stream's event is the usage chunk a budget asked for (and the caller did not). */
    boolean isUsageOnly(JsonObject event) {
        return false;
    }

    /** Chat completions: the adapters' own API. */
    private static final class Chat extends Exchange {

        static final Chat INSTANCE = new Chat();

        private Chat() {
            super(Api.CHAT);
        }

        @Override
        CompletableFuture<JsonObject> complete(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                               Duration headersTimeout) {
            return adapter.complete(target, body, headersTimeout);
        }

        @Override
        Flow.Publisher<JsonObject> stream(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                          Duration headersTimeout) {
            return adapter.stream(target, body, headersTimeout);
        }

        @Override
        JsonObject usage(JsonObject answerOrEvent) {
            return OpenAiShape.usage(answerOrEvent);
        }

        @Override
        boolean hasOutput(JsonObject event) {
            return OpenAiShape.hasOutput(event);
        }

        @Override
        boolean finishes(JsonObject event) {
            return OpenAiShape.finishReason(event) != null;
        }

        @Override
        JsonObject withCost(JsonObject event, Cost cost) {
            return OpenAiShape.withCost(event, cost);
        }

        @Override
        boolean isUsageOnly(JsonObject event) {
            return event.get("choices") instanceof JsonArray choices && choices.isEmpty();
        }
    }

    /** Embeddings: one exchange, its usage in the chat shape already ({@code prompt_tokens}). */
    private static final class Embeddings extends Exchange {

        static final Embeddings INSTANCE = new Embeddings();

        private Embeddings() {
            super(Api.EMBEDDINGS);
        }

        @Override
        CompletableFuture<JsonObject> complete(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                               Duration headersTimeout) {
            return adapter.embed(target, body, headersTimeout);
        }

        @Override
        Flow.Publisher<JsonObject> stream(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                          Duration headersTimeout) {
            throw new IllegalStateException("embeddings are never streamed");
        }

        @Override
        JsonObject usage(JsonObject answerOrEvent) {
            return OpenAiShape.usage(answerOrEvent);
        }

        @Override
        boolean hasOutput(JsonObject event) {
            return false;
        }

        @Override
        boolean finishes(JsonObject event) {
            return false;
        }
    }

    /**
     * The Responses API: sent as it is to a target that speaks it, else translated to chat completions (once per call)
     * and the answer or each stream's chunks translated back. One instance per call.
     */
    private static final class Responses extends Exchange {

        private final String responseId;
        private final long createdAt;
        private volatile JsonObject chatBody;

        Responses(String responseId, long createdAt) {
            super(Api.RESPONSES);
            this.responseId = responseId;
            this.createdAt = createdAt;
        }

        @Override
        CompletableFuture<JsonObject> complete(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                               Duration headersTimeout) {
            if (adapter.speaksResponses(target)) {
                return adapter.respond(target, body, headersTimeout);
            }
            JsonObject chat;
            try {
                chat = chatBody(body);
            } catch (UntranslatableRequestException e) {
                return CompletableFuture.failedFuture(untranslatable(target, e));
            }
            return adapter.complete(target, chat, headersTimeout)
                    .thenApply(completion -> ResponsesWriting.response(completion, body, responseId, createdAt));
        }

        @Override
        Flow.Publisher<JsonObject> stream(ProviderAdapter adapter, ProviderTarget target, JsonObject body,
                                          Duration headersTimeout) {
            if (adapter.speaksResponses(target)) {
                return adapter.streamResponse(target, body, headersTimeout);
            }
            JsonObject chat;
            try {
                chat = chatBody(body);
            } catch (UntranslatableRequestException e) {
                return Publishers.failed(untranslatable(target, e));
            }
            var events = new ResponsesWriting.Stream(responseId, body, createdAt);
            return Publishers.flatMap(adapter.stream(target, chat, headersTimeout), events::onChunk, events::finish);
        }

        /** The chat body, translated once: the attempts of a call send the same. */
        private JsonObject chatBody(JsonObject body) {
            JsonObject chat = chatBody;
            if (chat == null) {
                chat = ResponsesRequests.toChat(body);
                chatBody = chat;
            }
            return chat;
        }

        private static ProviderException untranslatable(ProviderTarget target, UntranslatableRequestException e) {
            return new ProviderException(new ProviderFailure(FailureKind.INVALID_REQUEST, 0, "invalid_request_error",
                    "untranslatable_request", target.provider() + " does not speak the Responses API, and this "
                    + "request cannot be translated for it: " + e.getMessage(), null));
        }

        @Override
        JsonObject usage(JsonObject answerOrEvent) {
            return ResponsesShape.usage(answerOrEvent);
        }

        @Override
        boolean hasOutput(JsonObject event) {
            return ResponsesShape.hasOutput(event);
        }

        @Override
        boolean finishes(JsonObject event) {
            return ResponsesShape.finishes(event);
        }
    }
}
