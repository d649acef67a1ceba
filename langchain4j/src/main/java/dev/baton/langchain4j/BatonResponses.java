package dev.baton.langchain4j;

import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Baton's answer, always in the OpenAI {@code chat.completion} shape whichever provider served, as
 * LangChain4j's {@link ChatResponse}: text, tool execution requests, finish reason, token usage, and
 * Baton's served-by in {@link BatonResponseMetadata}. A pure function.
 */
final class BatonResponses {

    private BatonResponses() {
    }

    static ChatResponse fromBaton(dev.baton.ChatResponse answer) {
        JsonObject body = answer.body();
        JsonObject choice = firstChoice(body);
        JsonObject message = choice != null && choice.get("message") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
        List<ToolExecutionRequest> calls = new ArrayList<>();
        if (message.get("tool_calls") instanceof JsonArray array) {
            for (JsonValue value : array) {
                if (value instanceof JsonObject call && call.get("function") instanceof JsonObject function) {
                    calls.add(ToolExecutionRequest.builder().id(string(call, "id")).name(string(function, "name"))
                            .arguments(string(function, "arguments")).build());
                }
            }
        }
        AiMessage aiMessage = aiMessage(string(message, "content"), reasoning(message), calls, string(message, "refusal"));
        String reason = choice == null ? null : string(choice, "finish_reason");
        return ChatResponse.builder().aiMessage(aiMessage)
                .metadata(metadata(string(body, "id"), answer.servedBy(), answer.requestId(), answer.degraded(),
                        modelName(body, answer.servedBy()), finishReason(reason), usage(body), answer.cost()))
                .build();
    }

    /** An assistant message; a refusal (OpenAI structured outputs) is kept as the attribute {@code refusal}. */
    static AiMessage aiMessage(String text, String thinking, List<ToolExecutionRequest> calls, String refusal) {
        AiMessage.Builder builder = AiMessage.builder().text(text).thinking(thinking).toolExecutionRequests(calls);
        if (refusal != null) {
            builder.attributes(Map.of("refusal", refusal));
        }
        return builder.build();
    }

    static BatonResponseMetadata metadata(String id, ServedBy servedBy, String requestId, boolean degraded,
                                          String modelName, FinishReason finishReason, TokenUsage usage,
                                          Cost cost) {
        return BatonResponseMetadata.builder().id(id).modelName(modelName).finishReason(finishReason)
                .tokenUsage(usage).servedBy(servedBy).requestId(requestId).degraded(degraded).cost(cost).build();
    }

    /** The cost Baton put into a stream's usage chunk ({@code usage.cost} and its source), or {@code null}. */
    static Cost cost(JsonObject body) {
        if (body.get("usage") instanceof JsonObject usage && usage.get("cost") instanceof JsonNumber amount) {
            return new Cost(amount.bigDecimalValue(), string(usage, "cost_currency"), string(usage, "price_source"));
        }
        return null;
    }

    /** OpenAI's {@code finish_reason} as LangChain4j's; {@code null} stays {@code null}. */
    static FinishReason finishReason(String reason) {
        if (reason == null) {
            return null;
        }
        return switch (reason) {
            case "stop" -> FinishReason.STOP;
            case "length" -> FinishReason.LENGTH;
            case "tool_calls", "function_call" -> FinishReason.TOOL_EXECUTION;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    /** OpenAI's {@code usage}, or {@code null} when the body has none. */
    static TokenUsage usage(JsonObject body) {
        if (!(body.get("usage") instanceof JsonObject usage)) {
            return null;
        }
        return new TokenUsage(integer(usage, "prompt_tokens"), integer(usage, "completion_tokens"),
                integer(usage, "total_tokens"));
    }

    static String reasoning(JsonObject messageOrDelta) {
        String reasoning = string(messageOrDelta, "reasoning_content");
        return reasoning != null ? reasoning : string(messageOrDelta, "reasoning");
    }

    /** The model that served; the body's for a degraded answer (the route's name). */
    static String modelName(JsonObject body, ServedBy servedBy) {
        return servedBy != null ? servedBy.model() : string(body, "model");
    }

    static JsonObject firstChoice(JsonObject body) {
        return body.get("choices") instanceof JsonArray choices && !choices.isEmpty()
                && choices.get(0) instanceof JsonObject first ? first : null;
    }

    static String string(JsonObject object, String name) {
        return object.get(name) instanceof JsonString s ? s.getString() : null;
    }

    private static Integer integer(JsonObject object, String name) {
        return object.get(name) instanceof JsonNumber n ? n.intValue() : null;
    }
}
