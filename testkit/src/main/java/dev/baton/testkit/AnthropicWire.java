package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Anthropic Messages dialect: JSON messages, named SSE events from {@code message_start} to {@code message_stop},
 * and {@code {"type":"error",...}} envelopes.
 *
 * <p>Stateless and thread-safe.
 */
final class AnthropicWire implements WireFormat {

    static final AnthropicWire INSTANCE = new AnthropicWire();

    /** What {@code anthropic-organization-id} says on every answer. */
    static final String ORGANIZATION_ID = "5e1d7a9c-0000-4000-8000-51a0b0a7e511";

    private static final String ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private AnthropicWire() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.ANTHROPIC;
    }

    @Override
    public String route() {
        return "/messages";
    }

    /** Refuses what the API refuses before a model sees it: no JSON, no model, no integral max_tokens. */
    @Override
    public Behavior.ApiError reject(JsonObject body) {
        if (body == null) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null,
                    "There was an error parsing the body of your request: the body is not a JSON object.");
        }
        if (!(body.get("model") instanceof JsonString)) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "model: Field required");
        }
        if (!(body.get("max_tokens") instanceof JsonNumber n) || !n.isIntegral()) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "max_tokens: Field required");
        }
        return null;
    }

    @Override
    public Call call(JsonObject body, String account, long sequence) {
        return new Call("msg_sim" + sequence, sequence, Instant.now().getEpochSecond(), account,
                body.getString("model"), body.getBoolean("stream", false), false,
                Math.max(1, body.toString().length() / 4));
    }

    @Override
    public String requestId() {
        StringBuilder id = new StringBuilder("req_011CSim");
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 17; i++) {
            id.append(ID_ALPHABET.charAt(random.nextInt(ID_ALPHABET.length())));
        }
        return id.toString();
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("request-id", requestId);
        headers.put("anthropic-organization-id", ORGANIZATION_ID);
        Instant now = Instant.now();
        if (error == null) {
            headers.put("anthropic-ratelimit-requests-limit", "4000");
            headers.put("anthropic-ratelimit-requests-remaining", "3999");
            headers.put("anthropic-ratelimit-requests-reset", rfc3339(now.plusSeconds(1)));
        } else if (error.retryAfter() != null) {
            long millis = error.retryAfter().toMillis();
            headers.put("retry-after", Long.toString((millis + 999) / 1000));
            headers.put("anthropic-ratelimit-requests-limit", "50");
            headers.put("anthropic-ratelimit-requests-remaining", "0");
            headers.put("anthropic-ratelimit-requests-reset", rfc3339(now.plusMillis(millis)));
        }
        return headers;
    }

    @Override
    public String completion(Call call, Behavior.Reply reply) {
        var content = JSON.createArrayBuilder();
        if (reply.text() != null) {
            content.add(textBlock(reply.text()));
        }
        if (reply.toolCall() != null) {
            content.add(toolBlock(call, reply.toolCall(), JsonSupport.parseObject(reply.toolCall().arguments())));
        }
        return message(call, content.build(), stopReason(reply), usage(call.promptTokens(),
                WireFormat.outputTokens(reply))).build().toString();
    }

    /**
     * {@code message_start}, then per block {@code content_block_start}, its deltas and {@code content_block_stop}
     * ({@code ping} right after the first block starts), then {@code message_delta} and {@code message_stop}.
     */
    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        List<String> frames = new ArrayList<>();
        frames.add(event("message_start", JSON.createObjectBuilder().add("message",
                message(call, JSON.createArrayBuilder().build(), null, usage(call.promptTokens(), 1)))));
        int index = 0;
        Behavior.ToolCall tool = reply.toolCall();
        if (reply.text() != null || tool == null) {
            String text = reply.text() == null ? "" : reply.text();
            frames.add(blockStart(index, textBlock("")));
            frames.add(event("ping", JSON.createObjectBuilder()));
            for (String word : WireFormat.words(text)) {
                frames.add(blockDelta(index, JSON.createObjectBuilder().add("type", "text_delta").add("text", word)));
            }
            frames.add(blockStop(index++));
        }
        if (tool != null) {
            frames.add(blockStart(index, toolBlock(call, tool, JsonObject.EMPTY_JSON_OBJECT)));
            if (index == 0) {
                frames.add(event("ping", JSON.createObjectBuilder()));
            }
            for (String fragment : WireFormat.fragments(tool.arguments())) {
                frames.add(blockDelta(index, JSON.createObjectBuilder()
                        .add("type", "input_json_delta").add("partial_json", fragment)));
            }
            frames.add(blockStop(index));
        }
        frames.add(event("message_delta", JSON.createObjectBuilder()
                .add("delta", JSON.createObjectBuilder().add("stop_reason", stopReason(reply)).addNull("stop_sequence"))
                .add("usage", JSON.createObjectBuilder().add("output_tokens", WireFormat.outputTokens(reply)))));
        if (terminated) {
            frames.add(event("message_stop", JSON.createObjectBuilder()));
        }
        return frames;
    }

    /** After message_start, the first block's start and the ping. */
    @Override
    public int firstOutputEvent() {
        return 3;
    }

    @Override
    public String errorEvent(Behavior.ApiError error) {
        return "event: error\ndata: " + envelope(error, null, null).build() + "\n\n";
    }

    @Override
    public String malformedEvent(Call call) {
        return "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"ty\n\n";
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        return envelope(error, model, requestId).build().toString();
    }

    private static JsonObjectBuilder envelope(Behavior.ApiError error, String model, String requestId) {
        JsonObjectBuilder fields = JSON.createObjectBuilder()
                .add("type", error.type())
                .add("message", error.message().apply(model));
        if (error.code() != null) {
            fields.add("details", JSON.createObjectBuilder().add("error_code", error.code()));
        }
        JsonObjectBuilder body = JSON.createObjectBuilder().add("type", "error").add("error", fields);
        if (requestId != null) {
            body.add("request_id", requestId);
        }
        return body;
    }

    private static JsonObjectBuilder message(Call call, JsonArray content, String stopReason,
            JsonObject usage) {
        JsonObjectBuilder message = JSON.createObjectBuilder()
                .add("id", call.id())
                .add("type", "message")
                .add("role", "assistant")
                .add("model", call.model())
                .add("content", content);
        if (stopReason == null) {
            message.addNull("stop_reason");
        } else {
            message.add("stop_reason", stopReason);
        }
        return message.addNull("stop_sequence").add("usage", usage);
    }

    private static JsonObject usage(int input, int output) {
        return JSON.createObjectBuilder()
                .add("input_tokens", input)
                .add("output_tokens", output)
                .add("cache_creation_input_tokens", 0)
                .add("cache_read_input_tokens", 0)
                .build();
    }

    private static JsonObjectBuilder textBlock(String text) {
        return JSON.createObjectBuilder().add("type", "text").add("text", text);
    }

    private static JsonObjectBuilder toolBlock(Call call, Behavior.ToolCall tool, JsonObject input) {
        return JSON.createObjectBuilder()
                .add("type", "tool_use")
                .add("id", "toolu_sim" + call.sequence())
                .add("name", tool.name())
                .add("input", input);
    }

    private static String stopReason(Behavior.Reply reply) {
        return reply.toolCall() != null ? "tool_use" : "end_turn";
    }

    private static String blockStart(int index, JsonObjectBuilder block) {
        return event("content_block_start", JSON.createObjectBuilder().add("index", index).add("content_block", block));
    }

    private static String blockDelta(int index, JsonObjectBuilder delta) {
        return event("content_block_delta", JSON.createObjectBuilder().add("index", index).add("delta", delta));
    }

    private static String blockStop(int index) {
        return event("content_block_stop", JSON.createObjectBuilder().add("index", index));
    }

    /** One named event whose data repeats the name as {@code type}, first. */
    private static String event(String name, JsonObjectBuilder fields) {
        JsonObject data = JSON.createObjectBuilder().add("type", name).addAll(fields).build();
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    private static String rfc3339(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
