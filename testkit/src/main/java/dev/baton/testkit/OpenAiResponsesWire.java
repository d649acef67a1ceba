package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}, also Azure OpenAI's {@code /openai/v1/responses}): a
 * {@code response} object, or with {@code stream: true} typed SSE events from {@code response.created} to
 * {@code response.completed}, each with a {@code sequence_number}. The real API sends no {@code [DONE]}, so neither
 * does this; an unterminated stream leaves out {@code response.completed}. Errors answered as HTTP statuses are the
 * chat wire's {@code {"error":{...}}}; inside a stream they are an {@code error} event.
 *
 * <p>Stateless and thread-safe.
 */
final class OpenAiResponsesWire implements WireFormat {

    static final OpenAiResponsesWire INSTANCE = new OpenAiResponsesWire();

    private static final OpenAiWire OPENAI = OpenAiWire.INSTANCE;

    private OpenAiResponsesWire() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.OPENAI_RESPONSES;
    }

    @Override
    public String route() {
        return "/responses";
    }

    /** Refuses what the API refuses before a model sees it: no JSON, no model, no input, or a chat body. */
    @Override
    public Behavior.ApiError reject(JsonObject body) {
        if (body == null) {
            return OPENAI.reject(null);
        }
        if (body.containsKey("messages")) {
            return Behavior.ApiError.of(400, "invalid_request_error", "unsupported_parameter", "messages",
                    "Unsupported parameter: 'messages'. The Responses API takes the conversation as 'input'.");
        }
        if (!(body.get("model") instanceof JsonString)) {
            return missing("model");
        }
        JsonValue input = body.get("input");
        if (input == null || input.getValueType() == JsonValue.ValueType.NULL) {
            return missing("input");
        }
        if (!(input instanceof JsonString) && input.getValueType() != JsonValue.ValueType.ARRAY) {
            return Behavior.ApiError.of(400, "invalid_request_error", "invalid_type", "input",
                    "Invalid type for 'input': expected a string or an array of input items.");
        }
        return null;
    }

    private static Behavior.ApiError missing(String param) {
        return Behavior.ApiError.of(400, "invalid_request_error", "missing_required_parameter", param,
                "Missing required parameter: '" + param + "'.");
    }

    @Override
    public Call call(JsonObject body, String account, long sequence) {
        return new Call("resp_sim" + sequence, sequence, Instant.now().getEpochSecond(), account,
                body.getString("model"), body.getBoolean("stream", false), false,
                Math.max(1, body.toString().length() / 4), body);
    }

    @Override
    public String requestId() {
        return OPENAI.requestId();
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        return OPENAI.headers(requestId, error, processingMillis);
    }

    @Override
    public String completion(Call call, Behavior.Reply reply) {
        return response(call, "completed", output(call, reply), usage(call, reply)).build().toString();
    }

    /**
     * {@code response.created} and {@code response.in_progress}; for text a message item (item added, content part
     * added, one {@code output_text.delta} per word, text done, part done, item done); for a tool call a
     * {@code function_call} item (item added, 2–3 argument deltas, arguments done, item done); then
     * {@code response.completed} with the whole response and its usage.
     */
    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        List<String> frames = new ArrayList<>();
        JsonArray empty = JsonValue.EMPTY_JSON_ARRAY;
        add(frames, "response.created", JSON.createObjectBuilder()
                .add("response", response(call, "in_progress", empty, null)));
        add(frames, "response.in_progress", JSON.createObjectBuilder()
                .add("response", response(call, "in_progress", empty, null)));
        int index = 0;
        if (reply.text() != null) {
            String itemId = messageId(call);
            add(frames, "response.output_item.added", JSON.createObjectBuilder()
                    .add("output_index", index).add("item", message(call, null, "in_progress")));
            add(frames, "response.content_part.added", part(itemId, index).add("part", outputText("")));
            for (String word : WireFormat.words(reply.text())) {
                add(frames, "response.output_text.delta", part(itemId, index)
                        .add("delta", word).add("logprobs", JsonValue.EMPTY_JSON_ARRAY));
            }
            add(frames, "response.output_text.done", part(itemId, index)
                    .add("text", reply.text()).add("logprobs", JsonValue.EMPTY_JSON_ARRAY));
            add(frames, "response.content_part.done", part(itemId, index).add("part", outputText(reply.text())));
            add(frames, "response.output_item.done", JSON.createObjectBuilder()
                    .add("output_index", index).add("item", message(call, reply.text(), "completed")));
            index++;
        }
        Behavior.ToolCall tool = reply.toolCall();
        if (tool != null) {
            String itemId = functionCallId(call);
            add(frames, "response.output_item.added", JSON.createObjectBuilder()
                    .add("output_index", index).add("item", functionCall(call, tool, "", "in_progress")));
            for (String fragment : WireFormat.fragments(tool.arguments())) {
                add(frames, "response.function_call_arguments.delta", JSON.createObjectBuilder()
                        .add("item_id", itemId).add("output_index", index).add("delta", fragment));
            }
            add(frames, "response.function_call_arguments.done", JSON.createObjectBuilder()
                    .add("item_id", itemId).add("output_index", index).add("name", tool.name())
                    .add("arguments", tool.arguments()));
            add(frames, "response.output_item.done", JSON.createObjectBuilder()
                    .add("output_index", index).add("item", functionCall(call, tool, tool.arguments(), "completed")));
        }
        if (terminated) {
            add(frames, "response.completed", JSON.createObjectBuilder()
                    .add("response", response(call, "completed", output(call, reply), usage(call, reply))));
        }
        return frames;
    }

    /** The first text delta, after created, in_progress, the message item and its content part. */
    @Override
    public int firstOutputEvent() {
        return 4;
    }

    /** Without text, the first argument delta, right after the function_call item is added. */
    @Override
    public int firstOutputEvent(Behavior.Reply reply) {
        return reply.text() != null ? 4 : 3;
    }

    @Override
    public String errorEvent(Behavior.ApiError error) {
        return errorEvent(error, 0);
    }

    /** {@code event: error} with the code (the type when there is none), message and param, as the API sends it. */
    @Override
    public String errorEvent(Behavior.ApiError error, int sequence) {
        JsonObjectBuilder data = JSON.createObjectBuilder().add("type", "error");
        nullable(data, "code", error.code() != null ? error.code() : error.type());
        data.add("message", error.message().apply(null));
        nullable(data, "param", error.param());
        data.add("sequence_number", sequence);
        return "event: error\ndata: " + data.build() + "\n\n";
    }

    @Override
    public String malformedEvent(Call call) {
        return "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\""
                + messageId(call) + "\",\"outp\n\n";
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        return OPENAI.errorBody(error, model, requestId);
    }

    /**
     * The response object. What the request set and the simulator does not act on (instructions, max_output_tokens,
     * tools, tool_choice, temperature, …) is echoed back as the API does; what it did not set has the API's default.
     */
    private static JsonObjectBuilder response(Call call, String status, JsonArray output, JsonObject usage) {
        JsonObject request = call.request();
        JsonObjectBuilder response = JSON.createObjectBuilder()
                .add("id", call.id())
                .add("object", "response")
                .add("created_at", call.created())
                .add("status", status)
                .add("background", false)
                .addNull("error")
                .addNull("incomplete_details");
        echo(response, request, "instructions", JsonValue.NULL);
        echo(response, request, "max_output_tokens", JsonValue.NULL);
        response.add("model", call.model())
                .add("output", output)
                .add("parallel_tool_calls", request.getBoolean("parallel_tool_calls", true));
        echo(response, request, "previous_response_id", JsonValue.NULL);
        echo(response, request, "reasoning", JSON.createObjectBuilder().addNull("effort").addNull("summary").build());
        response.add("store", request.getBoolean("store", true));
        echo(response, request, "temperature", JSON.createValue(1.0));
        echo(response, request, "text", JSON.createObjectBuilder()
                .add("format", JSON.createObjectBuilder().add("type", "text")).build());
        echo(response, request, "tool_choice", JSON.createValue("auto"));
        echo(response, request, "tools", JsonValue.EMPTY_JSON_ARRAY);
        echo(response, request, "top_p", JSON.createValue(1.0));
        echo(response, request, "truncation", JSON.createValue("disabled"));
        if (usage == null) {
            response.addNull("usage");
        } else {
            response.add("usage", usage);
        }
        echo(response, request, "user", JsonValue.NULL);
        return response.add("metadata", request.get("metadata") instanceof JsonObject metadata
                ? metadata : JsonValue.EMPTY_JSON_OBJECT);
    }

    private static void echo(JsonObjectBuilder response, JsonObject request, String name, JsonValue fallback) {
        JsonValue value = request.get(name);
        response.add(name, value != null ? value : fallback);
    }

    /** The output items: a message when the reply has text, then a function call when it has one. */
    private static JsonArray output(Call call, Behavior.Reply reply) {
        JsonArrayBuilder output = JSON.createArrayBuilder();
        if (reply.text() != null) {
            output.add(message(call, reply.text(), "completed"));
        }
        if (reply.toolCall() != null) {
            output.add(functionCall(call, reply.toolCall(), reply.toolCall().arguments(), "completed"));
        }
        return output.build();
    }

    /** A message item; null text: no content part yet. */
    private static JsonObjectBuilder message(Call call, String text, String status) {
        JsonArrayBuilder content = JSON.createArrayBuilder();
        if (text != null) {
            content.add(outputText(text));
        }
        return JSON.createObjectBuilder()
                .add("id", messageId(call))
                .add("type", "message")
                .add("status", status)
                .add("role", "assistant")
                .add("content", content);
    }

    private static JsonObjectBuilder outputText(String text) {
        return JSON.createObjectBuilder()
                .add("type", "output_text")
                .add("annotations", JsonValue.EMPTY_JSON_ARRAY)
                .add("logprobs", JsonValue.EMPTY_JSON_ARRAY)
                .add("text", text);
    }

    private static JsonObjectBuilder functionCall(Call call, Behavior.ToolCall tool, String arguments, String status) {
        return JSON.createObjectBuilder()
                .add("id", functionCallId(call))
                .add("type", "function_call")
                .add("status", status)
                .add("arguments", arguments)
                .add("call_id", "call_sim" + call.sequence())
                .add("name", tool.name());
    }

    /** The fields every content-part event starts with. */
    private static JsonObjectBuilder part(String itemId, int outputIndex) {
        return JSON.createObjectBuilder().add("item_id", itemId).add("output_index", outputIndex)
                .add("content_index", 0);
    }

    private static JsonObject usage(Call call, Behavior.Reply reply) {
        int output = WireFormat.outputTokens(reply);
        return JSON.createObjectBuilder()
                .add("input_tokens", call.promptTokens())
                .add("input_tokens_details", JSON.createObjectBuilder().add("cached_tokens", 0))
                .add("output_tokens", output)
                .add("output_tokens_details", JSON.createObjectBuilder().add("reasoning_tokens", 0))
                .add("total_tokens", call.promptTokens() + output)
                .build();
    }

    private static String messageId(Call call) {
        return "msg_sim" + call.sequence();
    }

    private static String functionCallId(Call call) {
        return "fc_sim" + call.sequence();
    }

    /** Appends one typed event, its sequence number being its position in the stream. */
    private static void add(List<String> frames, String type, JsonObjectBuilder fields) {
        JsonObject data = JSON.createObjectBuilder().add("type", type).add("sequence_number", frames.size())
                .addAll(fields).build();
        frames.add("event: " + type + "\ndata: " + data + "\n\n");
    }

    private static void nullable(JsonObjectBuilder builder, String name, String value) {
        if (value == null) {
            builder.addNull(name);
        } else {
            builder.add(name, value);
        }
    }
}
