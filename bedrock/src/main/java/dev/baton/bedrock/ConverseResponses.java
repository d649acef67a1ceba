package dev.baton.bedrock;

import dev.baton.impl.translate.OpenAiResponseWriting;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

/**
 * A Converse answer to an OpenAI {@code chat.completion}. A pure function: no I/O, no clock, no logging. The
 * stop-reason and usage mappings are shared with {@link ConverseStreamTranslator}.
 */
public final class ConverseResponses {

    private static final JsonProvider JSON = JsonProvider.provider();

    private ConverseResponses() {
    }

    /**
     * Text blocks joined into {@code content} ({@code null} when there is none), {@code toolUse} blocks as
     * {@code tool_calls}, {@code reasoningContent} joined into {@code reasoning_content}; other blocks are not carried.
     *
     * @param id      the answer's id (Converse has none: the request id)
     * @param model   the model as the caller named it
     * @param created seconds since the epoch
     */
    public static JsonObject toOpenAi(JsonObject converse, String id, String model, long created) {
        StringBuilder text = null;
        StringBuilder reasoning = null;
        JsonArrayBuilder toolCalls = null;
        JsonObject message = converse.get("output") instanceof JsonObject output
                && output.get("message") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
        if (message.get("content") instanceof JsonArray blocks) {
            for (JsonValue value : blocks) {
                if (!(value instanceof JsonObject block)) {
                    continue;
                }
                if (block.get("text") instanceof JsonString s) {
                    text = (text == null ? new StringBuilder() : text).append(s.getString());
                } else if (block.get("toolUse") instanceof JsonObject use) {
                    toolCalls = toolCalls == null ? JSON.createArrayBuilder() : toolCalls;
                    toolCalls.add(OpenAiResponseWriting.toolCall(string(use, "toolUseId", ""), string(use, "name", ""),
                            use.get("input")));
                } else if (block.get("reasoningContent") instanceof JsonObject r
                        && r.get("reasoningText") instanceof JsonObject rt && rt.get("text") instanceof JsonString s) {
                    reasoning = (reasoning == null ? new StringBuilder() : reasoning).append(s.getString());
                }
            }
        }
        JsonObjectBuilder completion = OpenAiResponseWriting.completion(id, model, created,
                OpenAiResponseWriting.assistantMessage(text, reasoning, toolCalls),
                finishReason(string(converse, "stopReason", null)));
        if (converse.get("usage") instanceof JsonObject usage) {
            completion.add("usage", usage(usage));
        }
        return completion.build();
    }

    /**
     * Converse {@code stopReason} to OpenAI {@code finish_reason}: end_turn and stop_sequence stop; max_tokens and
     * model_context_window_exceeded are length; tool_use is tool_calls; guardrail_intervened and content_filtered are
     * content_filter; anything else (and {@code null}) stops.
     */
    public static String finishReason(String stopReason) {
        if (stopReason == null) {
            return "stop";
        }
        return switch (stopReason) {
            case "max_tokens", "model_context_window_exceeded" -> "length";
            case "tool_use" -> "tool_calls";
            case "guardrail_intervened", "content_filtered" -> "content_filter";
            default -> "stop";
        };
    }

    /** OpenAI {@code usage} from Converse's: cache reads and writes are prompt tokens too, the reads cached ones. */
    static JsonObject usage(JsonObject usage) {
        return OpenAiResponseWriting.usage(number(usage, "inputTokens"), number(usage, "cacheReadInputTokens"),
                number(usage, "cacheWriteInputTokens"), number(usage, "outputTokens"));
    }

    static String string(JsonObject object, String field, String otherwise) {
        return object.get(field) instanceof JsonString s ? s.getString() : otherwise;
    }

    static long number(JsonObject object, String field) {
        return object.get(field) instanceof JsonNumber n ? n.longValue() : 0;
    }
}
