package dev.baton.langchain4j;

import dev.baton.ChatChunk;
import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.output.TokenUsage;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Subscribes to Baton's stream of OpenAI chunks and drives a LangChain4j handler: text, thinking
 * and tool-call fragments as they arrive, each tool call once complete, and the assembled answer
 * when the stream ends. A stream ends in {@code onCompleteResponse} or in {@code onError}, once; a
 * stream that breaks after its first output (Baton's commit point) ends in {@code onError}, so a
 * partial answer is never delivered as a complete one. A handler that throws stops the stream and
 * gets its exception in {@code onError}, as LangChain4j's own models do (even from
 * {@code onCompleteResponse}).
 *
 * <p>Chunks arrive one at a time on Baton's I/O thread (the publisher serialises its signals), so the
 * state needs no locking; only the end is guarded, against a handler failing while the stream ends.
 */
final class StreamAssembler implements Flow.Subscriber<ChatChunk> {

    private final StreamingChatResponseHandler handler;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    private final StringBuilder refusal = new StringBuilder();
    private final List<ToolExecutionRequest> calls = new ArrayList<>();
    private volatile Flow.Subscription subscription;

    /** The tool call being assembled; {@code -1} before the first. */
    private int callIndex = -1;
    private String callId;
    private String callName;
    private final StringBuilder callArguments = new StringBuilder();

    private String id;
    private String model;
    private ServedBy servedBy;
    private String requestId;
    private String finishReason;
    private TokenUsage usage;
    private Cost cost;

    StreamAssembler(StreamingChatResponseHandler handler) {
        this.handler = handler;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(ChatChunk chunk) {
        if (ended.get()) {
            return;
        }
        try {
            read(chunk);
        } catch (RuntimeException handlerFailed) {
            // The application's handler threw: stop the upstream exchange and report it once.
            subscription.cancel();
            end(null, handlerFailed);
        }
    }

    private void read(ChatChunk chunk) {
        JsonObject body = chunk.body();
        servedBy = chunk.servedBy() != null ? chunk.servedBy() : servedBy;
        requestId = chunk.requestId() != null ? chunk.requestId() : requestId;
        id = id != null ? id : BatonResponses.string(body, "id");
        model = model != null ? model : BatonResponses.string(body, "model");
        TokenUsage chunkUsage = BatonResponses.usage(body);
        usage = chunkUsage != null ? chunkUsage : usage;
        Cost chunkCost = BatonResponses.cost(body);
        cost = chunkCost != null ? chunkCost : cost;
        JsonObject choice = BatonResponses.firstChoice(body);
        if (choice == null) {
            return; // the usage chunk has no choices
        }
        String reason = BatonResponses.string(choice, "finish_reason");
        finishReason = reason != null ? reason : finishReason;
        if (!(choice.get("delta") instanceof JsonObject delta)) {
            return;
        }
        String content = BatonResponses.string(delta, "content");
        if (content != null && !content.isEmpty()) {
            text.append(content);
            handler.onPartialResponse(content);
        }
        String thought = BatonResponses.reasoning(delta);
        if (thought != null && !thought.isEmpty()) {
            thinking.append(thought);
            handler.onPartialThinking(new PartialThinking(thought));
        }
        String refused = BatonResponses.string(delta, "refusal");
        if (refused != null) {
            refusal.append(refused);
        }
        if (delta.get("tool_calls") instanceof JsonArray toolCalls) {
            for (JsonValue value : toolCalls) {
                if (value instanceof JsonObject call) {
                    toolCall(call);
                }
            }
        }
    }

    /** One fragment: the first of a call carries its index, id and name; later ones add to its arguments. */
    private void toolCall(JsonObject fragment) {
        int index = fragment.get("index") instanceof JsonNumber n ? n.intValue() : Math.max(callIndex, 0);
        if (index != callIndex) {
            completeToolCall();
            callIndex = index;
        }
        String fragmentId = BatonResponses.string(fragment, "id");
        callId = fragmentId != null ? fragmentId : callId;
        String arguments = null;
        if (fragment.get("function") instanceof JsonObject function) {
            String name = BatonResponses.string(function, "name");
            callName = name != null ? name : callName;
            arguments = BatonResponses.string(function, "arguments");
        }
        if (arguments != null && !arguments.isEmpty()) {
            callArguments.append(arguments);
            handler.onPartialToolCall(PartialToolCall.builder().index(callIndex).id(callId).name(callName)
                    .partialArguments(arguments).build());
        }
    }

    private void completeToolCall() {
        if (callIndex < 0) {
            return;
        }
        ToolExecutionRequest call = ToolExecutionRequest.builder().id(callId).name(callName)
                .arguments(callArguments.isEmpty() ? "{}" : callArguments.toString()).build();
        calls.add(call);
        handler.onCompleteToolCall(new CompleteToolCall(callIndex, call));
        callIndex = -1;
        callId = null;
        callName = null;
        callArguments.setLength(0);
    }

    @Override
    public void onError(Throwable failure) {
        end(null, BatonExceptions.toLangChain4j(failure));
    }

    @Override
    public void onComplete() {
        if (ended.get()) {
            return;
        }
        ChatResponse response;
        try {
            completeToolCall();
            response = ChatResponse.builder()
                    .aiMessage(BatonResponses.aiMessage(text.isEmpty() ? null : text.toString(),
                            thinking.isEmpty() ? null : thinking.toString(), calls,
                            refusal.isEmpty() ? null : refusal.toString()))
                    .metadata(BatonResponses.metadata(id, servedBy, requestId, false,
                            servedBy != null ? servedBy.model() : model, BatonResponses.finishReason(finishReason), usage,
                            cost))
                    .build();
        } catch (RuntimeException handlerFailed) {
            end(null, handlerFailed);
            return;
        }
        end(response, null);
    }

    /** Calls exactly one of the handler's two ends, once. */
    private void end(ChatResponse response, Throwable failure) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        if (failure == null) {
            try {
                handler.onCompleteResponse(response);
                return;
            } catch (RuntimeException handlerFailed) {
                failure = handlerFailed;
            }
        }
        handler.onError(failure);
    }
}
