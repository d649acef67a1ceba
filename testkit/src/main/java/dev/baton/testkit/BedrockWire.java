package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;

/**
 * Amazon Bedrock's Converse dialect: {@code POST /{account}/model/{modelId}/converse} answers JSON,
 * {@code …/converse-stream} answers binary AWS event stream frames ({@code messageStart} … {@code messageStop},
 * {@code metadata}), written by AWS's own encoder; errors are {@code {"message":…}} with the exception's name in
 * {@code x-amzn-ErrorType}, and mid-stream exceptions are frames of {@code :message-type exception}.
 *
 * <p>The frames of {@link #events} are kept as text until {@link #encode} encodes them: a first line
 * {@code "<message-type> <event or exception type>"}, then the JSON payload.
 *
 * <p>Stateless and thread-safe.
 */
final class BedrockWire implements WireFormat {

    static final BedrockWire INSTANCE = new BedrockWire();

    static final String STREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream";

    private BedrockWire() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.BEDROCK;
    }

    /** Not below {@code /v1}: the simulator routes {@code /{account}/model/{modelId}/converse[-stream]} itself. */
    @Override
    public String route() {
        return "/model/{modelId}/converse";
    }

    /** The {@code ValidationException}s Bedrock answers before a model sees the request. */
    @Override
    public Behavior.ApiError reject(JsonObject body) {
        if (body == null) {
            return validation("Malformed input request, please reformat your input and try again.");
        }
        if (!(body.get("messages") instanceof JsonArray messages) || messages.isEmpty()) {
            return validation("A conversation must start with a user message. Try again with a conversation that"
                    + " starts with a user message.");
        }
        return null;
    }

    /** {@code body} carries the path's model id and stream flag as {@code model} and {@code stream}. */
    @Override
    public Call call(JsonObject body, String account, long sequence) {
        return new Call("bedrock-sim-" + sequence, sequence, Instant.now().getEpochSecond(), account,
                body.getString("model"), body.getBoolean("stream", false), false,
                Math.max(1, body.toString().length() / 4));
    }

    @Override
    public String requestId() {
        return UUID.randomUUID().toString();
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-amzn-requestid", requestId);
        if (error != null) {
            headers.put("x-amzn-errortype", error.type() + ":http://internal.amazon.com/coral/com.amazon.bedrock/");
            if (error.retryAfter() != null) {
                headers.put("retry-after", Long.toString((error.retryAfter().toMillis() + 999) / 1000));
            }
        }
        return headers;
    }

    @Override
    public String completion(Call call, Behavior.Reply reply) {
        var content = JSON.createArrayBuilder();
        if (reply.text() != null) {
            content.add(JSON.createObjectBuilder().add("text", reply.text()));
        }
        if (reply.toolCall() != null) {
            content.add(JSON.createObjectBuilder().add("toolUse", JSON.createObjectBuilder()
                    .add("toolUseId", toolUseId(call))
                    .add("name", reply.toolCall().name())
                    .add("input", JsonSupport.parseObject(reply.toolCall().arguments()))));
        }
        return JSON.createObjectBuilder()
                .add("output", JSON.createObjectBuilder().add("message", JSON.createObjectBuilder()
                        .add("role", "assistant").add("content", content)))
                .add("stopReason", stopReason(reply))
                .add("usage", usage(call, reply))
                .add("metrics", JSON.createObjectBuilder().add("latencyMs", 42))
                .build().toString();
    }

    /**
     * {@code messageStart}; text as {@code contentBlockDelta}s and a {@code contentBlockStop}; a tool call as
     * {@code contentBlockStart}, input fragments, {@code contentBlockStop}; then {@code messageStop} with the stop
     * reason and, unless {@code terminated} is false, {@code metadata} with the usage, the stream's last event.
     */
    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        List<String> frames = new ArrayList<>();
        frames.add(event("messageStart", JSON.createObjectBuilder().add("role", "assistant")));
        int index = 0;
        Behavior.ToolCall tool = reply.toolCall();
        if (reply.text() != null || tool == null) {
            for (String word : WireFormat.words(reply.text() == null ? "" : reply.text())) {
                frames.add(event("contentBlockDelta", JSON.createObjectBuilder().add("contentBlockIndex", index)
                        .add("delta", JSON.createObjectBuilder().add("text", word))));
            }
            frames.add(event("contentBlockStop", JSON.createObjectBuilder().add("contentBlockIndex", index++)));
        }
        if (tool != null) {
            frames.add(event("contentBlockStart", JSON.createObjectBuilder().add("contentBlockIndex", index)
                    .add("start", JSON.createObjectBuilder().add("toolUse", JSON.createObjectBuilder()
                            .add("toolUseId", toolUseId(call)).add("name", tool.name())))));
            for (String fragment : WireFormat.fragments(tool.arguments())) {
                frames.add(event("contentBlockDelta", JSON.createObjectBuilder().add("contentBlockIndex", index)
                        .add("delta", JSON.createObjectBuilder().add("toolUse",
                                JSON.createObjectBuilder().add("input", fragment)))));
            }
            frames.add(event("contentBlockStop", JSON.createObjectBuilder().add("contentBlockIndex", index)));
        }
        frames.add(event("messageStop", JSON.createObjectBuilder().add("stopReason", stopReason(reply))));
        if (terminated) {
            frames.add(event("metadata", JSON.createObjectBuilder().add("usage", usage(call, reply))
                    .add("metrics", JSON.createObjectBuilder().add("latencyMs", 42))));
        }
        return frames;
    }

    /** Right after {@code messageStart}. */
    @Override
    public int firstOutputEvent() {
        return 1;
    }

    /** An exception frame: {@code error.type()} is its {@code :exception-type}, e.g. {@code throttlingException}. */
    @Override
    public String errorEvent(Behavior.ApiError error) {
        return "exception " + error.type() + "\n"
                + JSON.createObjectBuilder().add("message", error.message().apply(null)).build();
    }

    /** A well-framed event whose JSON payload is cut short. */
    @Override
    public String malformedEvent(Call call) {
        return "event contentBlockDelta\n{\"contentBlockIndex\":0,\"delta\":{\"te";
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        return JSON.createObjectBuilder().add("message", error.message().apply(model)).build().toString();
    }

    @Override
    public String streamContentType() {
        return STREAM_CONTENT_TYPE;
    }

    /** Encodes a frame of {@link #events} as AWS's binary event stream message. */
    @Override
    public byte[] encode(String frame) {
        int newline = frame.indexOf('\n');
        String[] kind = frame.substring(0, newline).split(" ", 2);
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(kind[0].equals("exception") ? ":exception-type" : ":event-type", HeaderValue.fromString(kind[1]));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString(kind[0]));
        ByteBuffer encoded = new Message(headers, frame.substring(newline + 1).getBytes(StandardCharsets.UTF_8))
                .toByteBuffer();
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    /**
     * Bedrock's error for a behaviour scripted for any dialect: its own when the behaviour has one
     * ({@link Behavior#bedrockError}), else the exception Bedrock answers in the same situation; null when Bedrock
     * has no equivalent (a spend limit: AWS bills, it does not cut off).
     */
    static Behavior.ApiError errorFor(String factory, Behavior.ApiError openAi, Behavior.ApiError anthropic) {
        String name = factory.endsWith("()") ? factory.substring(0, factory.length() - 2) : factory;
        return switch (name) {
            case "rate_limited", "rate_limited_no_retry_after", "slowDown" -> new Behavior.ApiError(429,
                    "ThrottlingException", null, null,
                    model -> "Too many requests, please wait before trying again.",
                    openAi != null ? openAi.retryAfter() : null);
            case "overloaded" -> error(503, "ServiceUnavailableException",
                    "Bedrock is unable to process your request.");
            case "serverError" -> error(500, "InternalServerException",
                    "The server encountered an error processing your request.");
            case "gatewayTimeout" -> error(408, "ModelTimeoutException",
                    "Model has timed out in processing the request. Try your request again.");
            case "invalidRequest" -> error(400, "ValidationException", openAi.message().apply(null));
            case "contextLengthExceeded" -> error(400, "ValidationException", "Input is too long for requested model.");
            case "unauthorized" -> error(403, "UnrecognizedClientException",
                    "The security token included in the request is invalid.");
            case "forbidden" -> error(403, "AccessDeniedException",
                    "You don't have access to the model with the specified model ID.");
            case "modelNotFound" -> new Behavior.ApiError(404, "ResourceNotFoundException", null, null,
                    model -> "Could not resolve the foundation model from the provided model identifier.", null);
            default -> null;
        };
    }

    static Behavior.ApiError validation(String message) {
        return error(400, "ValidationException", message);
    }

    static Behavior.ApiError error(int status, String type, String message) {
        return Behavior.ApiError.of(status, type, null, null, message);
    }

    private static String toolUseId(Call call) {
        return "tooluse_sim" + call.sequence();
    }

    private static String stopReason(Behavior.Reply reply) {
        return reply.toolCall() != null ? "tool_use" : "end_turn";
    }

    private static JsonObject usage(Call call, Behavior.Reply reply) {
        int output = WireFormat.outputTokens(reply);
        return JSON.createObjectBuilder()
                .add("inputTokens", call.promptTokens())
                .add("outputTokens", output)
                .add("totalTokens", call.promptTokens() + output)
                .build();
    }

    /**
     * One event frame; like Bedrock's, the payload carries a field {@code p} of random length so that event sizes
     * do not give the text away, which readers must ignore.
     */
    private static String event(String type, JsonObjectBuilder payload) {
        int padding = 1 + ThreadLocalRandom.current().nextInt(24);
        return "event " + type + "\n" + payload.add("p", "abcdefghijklmnopqrstuvwxyz".substring(0, padding)).build();
    }
}
