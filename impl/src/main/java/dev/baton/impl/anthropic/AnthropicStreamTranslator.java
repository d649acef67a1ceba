package dev.baton.impl.anthropic;

import dev.baton.impl.translate.OpenAiResponseWriting;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.baton.impl.anthropic.AnthropicResponses.number;
import static dev.baton.impl.anthropic.AnthropicResponses.string;

/**
 * Anthropic Messages stream events to OpenAI {@code chat.completion.chunk} objects. A small state
 * machine for one stream: it remembers the message id and model, which Anthropic content block is
 * which OpenAI tool call, and the token counts. No I/O, no clock, no logging. Not thread-safe: one
 * instance per stream, fed by one thread at a time.
 */
public final class AnthropicStreamTranslator {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private final boolean includeUsage;
    private final long created;
    /** Anthropic content-block index to OpenAI tool-call index (the ordinal among tool_use blocks). */
    private final Map<Integer, Integer> toolCalls = new HashMap<>();
    private String id;
    private String model;
    private long inputTokens;
    private long cacheReadTokens;
    private long cacheCreationTokens;
    private long outputTokens;
    private boolean finished;

    /** @param includeUsage whether the caller asked for {@code stream_options.include_usage} */
    public AnthropicStreamTranslator(boolean includeUsage) {
        this(includeUsage, 0);
    }

    /**
     * @param includeUsage whether the caller asked for {@code stream_options.include_usage}
     * @param created      the {@code created} value of every chunk (seconds since the epoch)
     */
    public AnthropicStreamTranslator(boolean includeUsage, long created) {
        this.includeUsage = includeUsage;
        this.created = created;
    }

    /**
     * One SSE event to the chunks to emit, possibly none.
     *
     * @param event the SSE {@code event:} name; when {@code null}, the {@code type} of the data
     * @param data  the parsed {@code data:} object
     * @throws ProviderException for an {@code error} event, classified by {@link AnthropicClassifier} with status 0
     */
    public List<JsonObject> onEvent(String event, JsonObject data) {
        String name = event != null ? event : string(data, "type", "");
        if (finished && !"error".equals(name)) {
            return List.of(); // nothing after message_stop changes the answer
        }
        return switch (name) {
            case "message_start" -> messageStart(data);
            case "content_block_start" -> blockStart(data);
            case "content_block_delta" -> blockDelta(data);
            case "message_delta" -> messageDelta(data);
            case "message_stop" -> messageStop();
            case "error" -> throw error(data);
            default -> List.of(); // ping, content_block_stop, and event types added after this code
        };
    }

    /** True once {@code message_stop} was seen: the answer is complete. */
    public boolean finished() {
        return finished;
    }

    private List<JsonObject> messageStart(JsonObject data) {
        JsonObject message = data.get("message") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
        id = string(message, "id", id);
        model = string(message, "model", model);
        if (message.get("usage") instanceof JsonObject usage) {
            inputTokens = number(usage, "input_tokens");
            cacheReadTokens = number(usage, "cache_read_input_tokens");
            cacheCreationTokens = number(usage, "cache_creation_input_tokens");
            outputTokens = number(usage, "output_tokens");
        }
        return List.of(chunk(JSON.createObjectBuilder().add("role", "assistant").add("content", ""), null));
    }

    private List<JsonObject> blockStart(JsonObject data) {
        if (!(data.get("content_block") instanceof JsonObject block)) {
            return List.of();
        }
        switch (string(block, "type", "")) {
            case "tool_use" -> {
                int k = toolCalls.size();
                toolCalls.put(blockIndex(data), k);
                return List.of(chunk(JSON.createObjectBuilder().add("tool_calls", JSON.createArrayBuilder()
                        .add(JSON.createObjectBuilder()
                                .add("index", k)
                                .add("id", string(block, "id", ""))
                                .add("type", "function")
                                .add("function", JSON.createObjectBuilder()
                                        .add("name", string(block, "name", ""))
                                        .add("arguments", "")))), null));
            }
            case "text" -> {
                // Anthropic starts text blocks empty; carry any text it puts here anyway.
                return text("content", string(block, "text", ""));
            }
            case "thinking" -> {
                return text("reasoning_content", string(block, "thinking", ""));
            }
            default -> {
                return List.of(); // server_tool_use, redacted_thinking, …: not the client's to see
            }
        }
    }

    private List<JsonObject> blockDelta(JsonObject data) {
        if (!(data.get("delta") instanceof JsonObject delta)) {
            return List.of();
        }
        switch (string(delta, "type", "")) {
            case "text_delta" -> {
                return text("content", string(delta, "text", ""));
            }
            case "thinking_delta" -> {
                return text("reasoning_content", string(delta, "thinking", ""));
            }
            case "input_json_delta" -> {
                Integer k = toolCalls.get(blockIndex(data));
                String fragment = string(delta, "partial_json", "");
                if (k == null || fragment.isEmpty()) {
                    return List.of(); // a server tool's input, or an empty first fragment
                }
                return List.of(chunk(JSON.createObjectBuilder().add("tool_calls", JSON.createArrayBuilder()
                        .add(JSON.createObjectBuilder()
                                .add("index", k)
                                .add("function", JSON.createObjectBuilder().add("arguments", fragment)))), null));
            }
            default -> {
                return List.of(); // signature_delta, citations_delta, and delta types added after this code
            }
        }
    }

    private List<JsonObject> messageDelta(JsonObject data) {
        if (data.get("usage") instanceof JsonObject usage && usage.get("output_tokens") instanceof JsonNumber n) {
            outputTokens = n.longValue(); // cumulative: the last one counts
        }
        if (data.get("delta") instanceof JsonObject delta && string(delta, "stop_reason", null) != null) {
            return List.of(chunk(JSON.createObjectBuilder(),
                    AnthropicResponses.finishReason(string(delta, "stop_reason", null))));
        }
        return List.of();
    }

    private List<JsonObject> messageStop() {
        finished = true;
        if (!includeUsage) {
            return List.of();
        }
        JsonObject usage = OpenAiResponseWriting.usage(inputTokens, cacheReadTokens, cacheCreationTokens, outputTokens);
        return List.of(head().add("choices", JSON.createArrayBuilder()).add("usage", usage).build());
    }

    private static ProviderException error(JsonObject data) {
        JsonObject error = data.get("error") instanceof JsonObject e ? e : JsonValue.EMPTY_JSON_OBJECT;
        String type = string(error, "type", null);
        String message = string(error, "message", null);
        String errorCode = error.get("details") instanceof JsonObject details ? string(details, "error_code", null) : null;
        return new ProviderException(new ProviderFailure(
                AnthropicClassifier.classify(0, type, errorCode, message), 0, type, null,
                "error event in stream: " + (message != null ? message : type != null ? type : "no message"), null));
    }

    private List<JsonObject> text(String field, String text) {
        return text.isEmpty() ? List.of() : List.of(chunk(JSON.createObjectBuilder().add(field, text), null));
    }

    private JsonObject chunk(JsonObjectBuilder delta, String finishReason) {
        JsonObjectBuilder choice = JSON.createObjectBuilder().add("index", 0).add("delta", delta);
        if (finishReason != null) {
            choice.add("finish_reason", finishReason);
        } else {
            choice.add("finish_reason", JsonValue.NULL);
        }
        JsonObjectBuilder chunk = head().add("choices", JSON.createArrayBuilder().add(choice));
        if (includeUsage) {
            chunk.add("usage", JsonValue.NULL); // as OpenAI: only the last chunk carries usage
        }
        return chunk.build();
    }

    private JsonObjectBuilder head() {
        JsonObjectBuilder head = JSON.createObjectBuilder();
        if (id != null) {
            head.add("id", id);
        } else {
            head.add("id", JsonValue.NULL);
        }
        head.add("object", "chat.completion.chunk").add("created", created);
        if (model != null) {
            head.add("model", model);
        } else {
            head.add("model", JsonValue.NULL);
        }
        return head;
    }

    private static int blockIndex(JsonObject data) {
        return data.get("index") instanceof JsonNumber n ? n.intValue() : -1;
    }
}
