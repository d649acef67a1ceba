package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The OpenAI chat completions dialect: JSON completions, chunk streams ending in {@code [DONE]}, and error envelopes.
 *
 * <p>Stateless and thread-safe.
 */
final class OpenAiWire implements WireFormat {

    static final OpenAiWire INSTANCE = new OpenAiWire();

    /** What {@code /models} lists for an account that has not been restricted with {@link Account#serves}. */
    static final List<String> DEFAULT_MODELS = List.of("gpt-4o", "gpt-4o-mini");

    private OpenAiWire() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.OPENAI;
    }

    @Override
    public String route() {
        return "/chat/completions";
    }

    @Override
    public Behavior.ApiError reject(JsonObject body) {
        if (body == null) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null,
                    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your"
                            + " HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was"
                            + " not valid JSON.)");
        }
        if (!(body.get("model") instanceof JsonString)) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "you must provide a model parameter");
        }
        return null;
    }

    @Override
    public Call call(JsonObject body, String account, long sequence) {
        JsonValue options = body.get("stream_options");
        boolean includeUsage = options instanceof JsonObject o && o.getBoolean("include_usage", false);
        return new Call("chatcmpl-sim" + sequence, sequence, Instant.now().getEpochSecond(), account,
                body.getString("model"), body.getBoolean("stream", false), includeUsage,
                Math.max(1, body.toString().length() / 4));
    }

    @Override
    public String requestId() {
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        return "req_" + HexFormat.of().formatHex(id);
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-request-id", requestId);
        headers.put("openai-version", "2020-10-01");
        headers.put("openai-processing-ms", Long.toString(processingMillis));
        if (error == null) {
            headers.put("x-ratelimit-limit-requests", "10000");
            headers.put("x-ratelimit-remaining-requests", "9999");
            headers.put("x-ratelimit-reset-requests", "6ms");
        } else if (error.retryAfter() != null) {
            long millis = error.retryAfter().toMillis();
            headers.put("retry-after", Long.toString((millis + 999) / 1000));
            headers.put("retry-after-ms", Long.toString(millis));
            headers.put("x-ratelimit-limit-requests", "60");
            headers.put("x-ratelimit-remaining-requests", "0");
            headers.put("x-ratelimit-reset-requests", Behavior.goDuration(error.retryAfter()));
        }
        return headers;
    }

    @Override
    public String completion(Call call, Behavior.Reply reply) {
        JsonObjectBuilder message = JSON.createObjectBuilder().add("role", "assistant");
        nullable(message, "content", reply.text());
        if (reply.toolCall() != null) {
            Behavior.ToolCall tool = reply.toolCall();
            message.add("tool_calls", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                    .add("id", toolCallId(call))
                    .add("type", "function")
                    .add("function", JSON.createObjectBuilder()
                            .add("name", tool.name()).add("arguments", tool.arguments()))));
        }
        message.addNull("refusal");
        return JSON.createObjectBuilder()
                .add("id", call.id())
                .add("object", "chat.completion")
                .add("created", call.created())
                .add("model", call.model())
                .add("choices", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                        .add("index", 0)
                        .add("message", message)
                        .addNull("logprobs")
                        .add("finish_reason", finishReason(reply))))
                .add("usage", usage(call, reply))
                .addNull("system_fingerprint")
                .build().toString();
    }

    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        List<String> frames = new ArrayList<>();
        JsonObjectBuilder role = JSON.createObjectBuilder().add("role", "assistant");
        nullable(role, "content", reply.text() == null ? null : "");
        frames.add(chunk(call, role, null));
        for (String word : WireFormat.words(reply.text())) {
            frames.add(chunk(call, JSON.createObjectBuilder().add("content", word), null));
        }
        Behavior.ToolCall tool = reply.toolCall();
        if (tool != null) {
            frames.add(chunk(call, toolDelta(JSON.createObjectBuilder()
                    .add("id", toolCallId(call))
                    .add("type", "function")
                    .add("function", JSON.createObjectBuilder().add("name", tool.name()).add("arguments", ""))), null));
            for (String fragment : WireFormat.fragments(tool.arguments())) {
                frames.add(chunk(call, toolDelta(JSON.createObjectBuilder()
                        .add("function", JSON.createObjectBuilder().add("arguments", fragment))), null));
            }
        }
        frames.add(chunk(call, JSON.createObjectBuilder(), finishReason(reply)));
        if (call.includeUsage()) {
            JsonObjectBuilder usage = envelope(call);
            if (usageChoicesNull) {
                usage.addNull("choices");
            } else {
                usage.add("choices", JSON.createArrayBuilder());
            }
            frames.add(frame(usage.add("usage", usage(call, reply)).build().toString()));
        }
        if (terminated) {
            frames.add(frame("[DONE]"));
        }
        return frames;
    }

    @Override
    public int firstOutputEvent() {
        return 1;
    }

    @Override
    public String errorEvent(Behavior.ApiError error) {
        return frame(errorBody(error, null, null));
    }

    @Override
    public String malformedEvent(Call call) {
        return frame("{\"id\":\"" + call.id() + "\",\"object\":\"chat.completion.chunk\",\"choi");
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        JsonObjectBuilder fields = JSON.createObjectBuilder()
                .add("message", error.message().apply(model));
        nullable(fields, "type", error.type());
        nullable(fields, "param", error.param());
        nullable(fields, "code", error.code());
        if (error.extra() != null) {
            error.extra().forEach(fields::add);
        }
        return JSON.createObjectBuilder().add("error", fields).build().toString();
    }

    /** The body of {@code GET /models}. */
    static String models(Collection<String> models) {
        JsonArrayBuilder data = JSON.createArrayBuilder();
        models.stream().sorted().forEach(id -> data.add(JSON.createObjectBuilder()
                .add("id", id).add("object", "model").add("created", 1_715_367_049).add("owned_by", "system")));
        return JSON.createObjectBuilder().add("object", "list").add("data", data).build().toString();
    }

    /** OpenAI's answer to a path or method it does not serve. */
    static Behavior.ApiError invalidUrl(String method, String path) {
        return Behavior.ApiError.of(404, "invalid_request_error", null, null,
                "Invalid URL (" + method + " " + path + ")");
    }

    private static String toolCallId(Call call) {
        return "call_sim" + call.sequence();
    }

    private static String finishReason(Behavior.Reply reply) {
        return reply.toolCall() != null ? "tool_calls" : "stop";
    }

    /** A delta carrying one tool-call piece at index 0. */
    private static JsonObjectBuilder toolDelta(JsonObjectBuilder call) {
        return JSON.createObjectBuilder().add("tool_calls", JSON.createArrayBuilder()
                .add(JSON.createObjectBuilder().add("index", 0).addAll(call)));
    }

    private String chunk(Call call, JsonObjectBuilder delta, String finishReason) {
        JsonObjectBuilder choice = JSON.createObjectBuilder().add("index", 0).add("delta", delta).addNull("logprobs");
        nullable(choice, "finish_reason", finishReason);
        JsonObjectBuilder chunk = envelope(call).add("choices", JSON.createArrayBuilder().add(choice));
        if (call.includeUsage()) {
            chunk.addNull("usage");
        }
        return frame(chunk.build().toString());
    }

    private static JsonObjectBuilder envelope(Call call) {
        return JSON.createObjectBuilder()
                .add("id", call.id())
                .add("object", "chat.completion.chunk")
                .add("created", call.created())
                .add("model", call.model())
                .addNull("system_fingerprint");
    }

    private static JsonObject usage(Call call, Behavior.Reply reply) {
        int completion = WireFormat.outputTokens(reply);
        return JSON.createObjectBuilder()
                .add("prompt_tokens", call.promptTokens())
                .add("completion_tokens", completion)
                .add("total_tokens", call.promptTokens() + completion)
                .build();
    }

    private static void nullable(JsonObjectBuilder builder, String name, String value) {
        if (value == null) {
            builder.addNull(name);
        } else {
            builder.add(name, value);
        }
    }

    private static String frame(String data) {
        return "data: " + data + "\n\n";
    }
}
