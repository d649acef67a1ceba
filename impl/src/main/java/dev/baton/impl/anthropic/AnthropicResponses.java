package dev.baton.impl.anthropic;

import dev.baton.impl.translate.OpenAiResponseWriting;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

/**
 * An Anthropic Message to an OpenAI {@code chat.completion}. A pure function: no I/O, no clock,
 * no logging. The finish-reason and usage mappings are shared with {@link AnthropicStreamTranslator}.
 */
public final class AnthropicResponses {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private AnthropicResponses() {
    }

    /** {@link #toOpenAi(JsonObject, long)} with {@code created} 0. */
    public static JsonObject toOpenAi(JsonObject message) {
        return toOpenAi(message, 0);
    }

    /**
     * An Anthropic Message to an OpenAI {@code chat.completion}: the text blocks joined into
     * {@code content} ({@code null} when there is none), {@code tool_use} blocks as
     * {@code tool_calls}, thinking blocks joined into {@code reasoning_content}; other blocks
     * (server tools, redacted thinking) are not carried.
     *
     * @param created the {@code created} value (seconds since the epoch); the caller owns the clock
     */
    public static JsonObject toOpenAi(JsonObject message, long created) {
        StringBuilder text = null;
        StringBuilder thinking = null;
        JsonArrayBuilder toolCalls = null;
        if (message.get("content") instanceof jakarta.json.JsonArray blocks) {
            for (JsonValue value : blocks) {
                if (!(value instanceof JsonObject block)) {
                    continue;
                }
                switch (string(block, "type", "")) {
                    case "text" -> {
                        text = text == null ? new StringBuilder() : text;
                        text.append(string(block, "text", ""));
                    }
                    case "thinking" -> {
                        thinking = thinking == null ? new StringBuilder() : thinking;
                        thinking.append(string(block, "thinking", ""));
                    }
                    case "tool_use" -> {
                        toolCalls = toolCalls == null ? JSON.createArrayBuilder() : toolCalls;
                        toolCalls.add(OpenAiResponseWriting.toolCall(string(block, "id", ""), string(block, "name", ""),
                                block.get("input")));
                    }
                    default -> {
                        // redacted_thinking, server_tool_use, web_search_tool_result, …: nothing an OpenAI client reads
                    }
                }
            }
        }
        JsonObjectBuilder reply = OpenAiResponseWriting.assistantMessage(text, thinking, toolCalls);
        JsonObjectBuilder completion = OpenAiResponseWriting.completion(string(message, "id", ""),
                string(message, "model", ""), created, reply, finishReason(string(message, "stop_reason", null)));
        if (message.get("usage") instanceof JsonObject usage) {
            completion.add("usage", OpenAiResponseWriting.usage(number(usage, "input_tokens"),
                    number(usage, "cache_read_input_tokens"), number(usage, "cache_creation_input_tokens"),
                    number(usage, "output_tokens")));
        }
        return completion.build();
    }

    /**
     * Anthropic {@code stop_reason} to OpenAI {@code finish_reason}: end_turn, stop_sequence and
     * pause_turn stop; max_tokens and model_context_window_exceeded are length; tool_use is
     * tool_calls; refusal is content_filter; anything else (and {@code null}) stops.
     */
    public static String finishReason(String stopReason) {
        if (stopReason == null) {
            return "stop";
        }
        return switch (stopReason) {
            case "max_tokens", "model_context_window_exceeded" -> "length";
            case "tool_use" -> "tool_calls";
            case "refusal" -> "content_filter";
            default -> "stop"; // end_turn, stop_sequence, pause_turn, and values added after this code
        };
    }

    static String string(JsonObject object, String field, String otherwise) {
        return object.get(field) instanceof JsonString s ? s.getString() : otherwise;
    }

    /** A token count, 0 when absent or {@code null}. */
    static long number(JsonObject object, String field) {
        return object.get(field) instanceof JsonNumber n ? n.longValue() : 0;
    }
}
