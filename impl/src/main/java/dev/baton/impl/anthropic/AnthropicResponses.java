package dev.baton.impl.anthropic;

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
                        JsonValue input = block.get("input");
                        toolCalls.add(JSON.createObjectBuilder()
                                .add("id", string(block, "id", ""))
                                .add("type", "function")
                                .add("function", JSON.createObjectBuilder()
                                        .add("name", string(block, "name", ""))
                                        .add("arguments", input == null || input == JsonValue.NULL ? "{}" : input.toString())));
                    }
                    default -> {
                        // redacted_thinking, server_tool_use, web_search_tool_result, …: nothing an OpenAI client reads
                    }
                }
            }
        }
        JsonObjectBuilder reply = JSON.createObjectBuilder().add("role", "assistant");
        if (text != null) {
            reply.add("content", text.toString());
        } else {
            reply.add("content", JsonValue.NULL);
        }
        if (thinking != null) {
            reply.add("reasoning_content", thinking.toString());
        }
        if (toolCalls != null) {
            reply.add("tool_calls", toolCalls);
        }
        JsonObjectBuilder completion = JSON.createObjectBuilder()
                .add("id", string(message, "id", ""))
                .add("object", "chat.completion")
                .add("created", created)
                .add("model", string(message, "model", ""))
                .add("choices", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                        .add("index", 0)
                        .add("message", reply)
                        .add("logprobs", JsonValue.NULL)
                        .add("finish_reason", finishReason(string(message, "stop_reason", null)))));
        if (message.get("usage") instanceof JsonObject usage) {
            completion.add("usage", usage(number(usage, "input_tokens"), number(usage, "cache_read_input_tokens"),
                    number(usage, "cache_creation_input_tokens"), number(usage, "output_tokens")));
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

    /**
     * OpenAI {@code usage} from Anthropic counts: every input token (uncached, read from cache,
     * written to cache) is a prompt token; the cache reads are the cached ones.
     */
    static JsonObject usage(long input, long cacheRead, long cacheCreation, long output) {
        long prompt = input + cacheRead + cacheCreation;
        return JSON.createObjectBuilder()
                .add("prompt_tokens", prompt)
                .add("completion_tokens", output)
                .add("total_tokens", prompt + output)
                .add("prompt_tokens_details", JSON.createObjectBuilder().add("cached_tokens", cacheRead))
                .build();
    }

    static String string(JsonObject object, String field, String otherwise) {
        return object.get(field) instanceof JsonString s ? s.getString() : otherwise;
    }

    /** A token count, 0 when absent or {@code null}. */
    static long number(JsonObject object, String field) {
        return object.get(field) instanceof JsonNumber n ? n.longValue() : 0;
    }
}
