package dev.baton.bedrock;

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

import static dev.baton.bedrock.ConverseResponses.string;

/**
 * ConverseStream events to OpenAI {@code chat.completion.chunk} objects: {@code messageStart} is the role chunk,
 * {@code contentBlockDelta}s are text, reasoning or tool-call argument deltas, {@code contentBlockStart} opens a tool
 * call, {@code messageStop} carries the finish reason and {@code metadata} (the last event) the usage. Exception
 * frames throw. No I/O, no clock, no logging. Not thread-safe: one instance per stream.
 */
public final class ConverseStreamTranslator {

    private static final JsonProvider JSON = JsonProvider.provider();

    private final boolean includeUsage;
    private final String id;
    private final String model;
    private final long created;
    /** Converse content-block index to OpenAI tool-call index (the ordinal among tool-use blocks). */
    private final Map<Integer, Integer> toolCalls = new HashMap<>();
    private boolean stopped;
    private boolean done;

    public ConverseStreamTranslator(boolean includeUsage, String id, String model, long created) {
        this.includeUsage = includeUsage;
        this.id = id;
        this.model = model;
        this.created = created;
    }

    /**
     * One event to the chunks it yields, possibly none.
     *
     * @param type the {@code :event-type}, or {@link EventStreamFraming#EXCEPTION} and the exception type
     * @throws ProviderException for an exception frame, classified by {@link BedrockClassifier} with status 0
     */
    public List<JsonObject> onEvent(String type, JsonObject data) {
        if (type.startsWith(EventStreamFraming.EXCEPTION)) {
            String exception = type.substring(EventStreamFraming.EXCEPTION.length());
            String message = string(data, "message", string(data, "Message", null));
            throw new ProviderException(new ProviderFailure(BedrockClassifier.classify(0, exception, message), 0,
                    exception, null, "exception event in stream: " + exception
                    + (message != null ? ": " + message : ""), null));
        }
        if (done) {
            return List.of();
        }
        return switch (type) {
            case "messageStart" -> List.of(chunk(JSON.createObjectBuilder().add("role", "assistant").add("content", ""),
                    null));
            case "contentBlockStart" -> blockStart(data);
            case "contentBlockDelta" -> blockDelta(data);
            case "messageStop" -> messageStop(data);
            case "metadata" -> metadata(data);
            default -> List.of(); // contentBlockStop, and event types added after this code
        };
    }

    /** {@code metadata}, Converse's last event, was seen: stop reading. */
    public boolean done() {
        return done;
    }

    /** {@code messageStop} was seen: the answer is complete even if the body ends before {@code metadata}. */
    public boolean stopped() {
        return stopped;
    }

    private List<JsonObject> blockStart(JsonObject data) {
        if (!(data.get("start") instanceof JsonObject start) || !(start.get("toolUse") instanceof JsonObject use)) {
            return List.of();
        }
        int k = toolCalls.size();
        toolCalls.put(blockIndex(data), k);
        return List.of(chunk(JSON.createObjectBuilder().add("tool_calls", JSON.createArrayBuilder()
                .add(JSON.createObjectBuilder()
                        .add("index", k)
                        .add("id", string(use, "toolUseId", ""))
                        .add("type", "function")
                        .add("function", JSON.createObjectBuilder()
                                .add("name", string(use, "name", ""))
                                .add("arguments", "")))), null));
    }

    private List<JsonObject> blockDelta(JsonObject data) {
        if (!(data.get("delta") instanceof JsonObject delta)) {
            return List.of();
        }
        if (delta.containsKey("text")) {
            return text("content", string(delta, "text", ""));
        }
        if (delta.get("toolUse") instanceof JsonObject use) {
            Integer k = toolCalls.get(blockIndex(data));
            String fragment = string(use, "input", "");
            if (k == null || fragment.isEmpty()) {
                return List.of();
            }
            return List.of(chunk(JSON.createObjectBuilder().add("tool_calls", JSON.createArrayBuilder()
                    .add(JSON.createObjectBuilder()
                            .add("index", k)
                            .add("function", JSON.createObjectBuilder().add("arguments", fragment)))), null));
        }
        if (delta.get("reasoningContent") instanceof JsonObject reasoning) {
            return text("reasoning_content", string(reasoning, "text", ""));
        }
        return List.of();
    }

    private List<JsonObject> messageStop(JsonObject data) {
        if (stopped) {
            return List.of();
        }
        stopped = true;
        return List.of(chunk(JSON.createObjectBuilder(),
                ConverseResponses.finishReason(string(data, "stopReason", null))));
    }

    private List<JsonObject> metadata(JsonObject data) {
        done = true;
        if (!includeUsage || !(data.get("usage") instanceof JsonObject usage)) {
            return List.of();
        }
        return List.of(head().add("choices", JSON.createArrayBuilder())
                .add("usage", ConverseResponses.usage(usage)).build());
    }

    private List<JsonObject> text(String field, String text) {
        return text.isEmpty() ? List.of() : List.of(chunk(JSON.createObjectBuilder().add(field, text), null));
    }

    private JsonObject chunk(JsonObjectBuilder delta, String finishReason) {
        JsonObjectBuilder choice = JSON.createObjectBuilder().add("index", 0).add("delta", delta);
        choice.add("finish_reason", finishReason != null ? JSON.createValue(finishReason) : JsonValue.NULL);
        JsonObjectBuilder chunk = head().add("choices", JSON.createArrayBuilder().add(choice));
        if (includeUsage) {
            chunk.add("usage", JsonValue.NULL); // as OpenAI: only the last chunk carries usage
        }
        return chunk.build();
    }

    private JsonObjectBuilder head() {
        return JSON.createObjectBuilder().add("id", id).add("object", "chat.completion.chunk").add("created", created)
                .add("model", model);
    }

    private static int blockIndex(JsonObject data) {
        return data.get("contentBlockIndex") instanceof JsonNumber n ? n.intValue() : -1;
    }
}
