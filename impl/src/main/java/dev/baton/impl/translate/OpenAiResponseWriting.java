package dev.baton.impl.translate;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

/**
 * An internal helper shared by Baton's own translators: writes the parts of an OpenAI {@code chat.completion} that do
 * not depend on the provider the answer came from.
 */
public final class OpenAiResponseWriting {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private OpenAiResponseWriting() {
    }

    /** A {@code tool_calls} entry; no input is {@code "{}"}. */
    public static JsonObject toolCall(String id, String name, JsonValue input) {
        return JSON.createObjectBuilder()
                .add("id", id)
                .add("type", "function")
                .add("function", JSON.createObjectBuilder()
                        .add("name", name)
                        .add("arguments", input == null || input == JsonValue.NULL ? "{}" : input.toString()))
                .build();
    }

    /** The assistant's message: {@code content} null when there is no text; the others only when there are some. */
    public static JsonObjectBuilder assistantMessage(StringBuilder text, StringBuilder reasoning,
            JsonArrayBuilder toolCalls) {
        JsonObjectBuilder reply = JSON.createObjectBuilder().add("role", "assistant");
        reply.add("content", text != null ? JSON.createValue(text.toString()) : JsonValue.NULL);
        if (reasoning != null) {
            reply.add("reasoning_content", reasoning.toString());
        }
        if (toolCalls != null) {
            reply.add("tool_calls", toolCalls);
        }
        return reply;
    }

    /** A {@code chat.completion} of one choice, without {@code usage} (the caller adds it when it has one). */
    public static JsonObjectBuilder completion(String id, String model, long created, JsonObjectBuilder message,
            String finishReason) {
        return JSON.createObjectBuilder()
                .add("id", id)
                .add("object", "chat.completion")
                .add("created", created)
                .add("model", model)
                .add("choices", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                        .add("index", 0)
                        .add("message", message)
                        .add("logprobs", JsonValue.NULL)
                        .add("finish_reason", finishReason)));
    }

    /**
     * OpenAI {@code usage} from a provider's counts: every input token (uncached, read from cache, written to cache)
     * is a prompt token; the cache reads are the cached ones.
     */
    public static JsonObject usage(long input, long cacheRead, long cacheWrite, long output) {
        long prompt = input + cacheRead + cacheWrite;
        return JSON.createObjectBuilder()
                .add("prompt_tokens", prompt)
                .add("completion_tokens", output)
                .add("total_tokens", prompt + output)
                .add("prompt_tokens_details", JSON.createObjectBuilder().add("cached_tokens", cacheRead))
                .build();
    }
}
