package dev.baton.wire;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.util.Set;

/**
 * What Baton reads from the OpenAI Responses API's answers and stream events: an event's type, whether it carries
 * output (the commit point), whether it ends the answer, and the usage in the chat-completions shape that prices and
 * records read. From the text when the object is a provider's own ({@link RawJsonObject}), from the tree otherwise.
 */
public final class ResponsesShape {

    private static final JsonProvider JSON = JsonProvider.provider();

    /** The delta events that carry output: text, refusals, reasoning, and the arguments of tool calls. */
    private static final Set<String> OUTPUT_DELTAS = Set.of(
            "response.output_text.delta", "response.refusal.delta", "response.function_call_arguments.delta",
            "response.reasoning_summary_text.delta", "response.reasoning_text.delta",
            "response.custom_tool_call_input.delta", "response.audio.delta", "response.audio.transcript.delta",
            "response.code_interpreter_call_code.delta");

    /** The events after which a Responses stream is over and its answer whole. */
    public static final Set<String> FINAL = Set.of("response.completed", "response.incomplete");

    private ResponsesShape() {
    }

    /** The event's {@code type}, or {@code null}. */
    public static String type(JsonObject event) {
        if (event instanceof RawJsonObject raw) {
            JsonScan.Span type = raw.member("type");
            return type != null && type.isString() ? type.string() : null;
        }
        return event.get("type") instanceof JsonString s ? s.getString() : null;
    }

    /** Whether the event is a non-empty output delta: the first one is a stream's commit point. */
    public static boolean hasOutput(JsonObject event) {
        String type = type(event);
        if (type == null || !OUTPUT_DELTAS.contains(type)) {
            return false;
        }
        if (event instanceof RawJsonObject raw) {
            JsonScan.Span delta = raw.member("delta");
            return delta != null && !(delta.isString() && delta.end() - delta.start() <= 2) && !delta.isNull();
        }
        JsonValue delta = event.get("delta");
        return delta != null && delta != JsonValue.NULL && !(delta instanceof JsonString s && s.getString().isEmpty());
    }

    /** Whether the event ends the answer ({@code response.completed} or {@code response.incomplete}). */
    public static boolean finishes(JsonObject event) {
        String type = type(event);
        return type != null && FINAL.contains(type);
    }

    /**
     * The usage of a {@code response} object, or of the response a final event carries, in the chat-completions shape
     * ({@code prompt_tokens}, {@code completion_tokens}, {@code total_tokens}, {@code prompt_tokens_details.cached_tokens},
     * {@code completion_tokens_details.reasoning_tokens}); {@code null} when there is none.
     */
    public static JsonObject usage(JsonObject responseOrEvent) {
        JsonObject response = responseOrEvent;
        String type = type(responseOrEvent);
        if (type != null) { // an event: only the final ones carry usage, and the others are not parsed
            if (!FINAL.contains(type) || !(responseOrEvent.get("response") instanceof JsonObject inner)) {
                return null;
            }
            response = inner;
        }
        return response.get("usage") instanceof JsonObject usage ? asChatUsage(usage) : null;
    }

    /** Responses usage ({@code input_tokens}, {@code output_tokens}, …) in the chat-completions shape. */
    public static JsonObject asChatUsage(JsonObject usage) {
        long input = count(usage, "input_tokens");
        long output = count(usage, "output_tokens");
        long cached = usage.get("input_tokens_details") instanceof JsonObject d ? count(d, "cached_tokens") : 0;
        long reasoning = usage.get("output_tokens_details") instanceof JsonObject d ? count(d, "reasoning_tokens") : 0;
        return JSON.createObjectBuilder()
                .add("prompt_tokens", input)
                .add("completion_tokens", output)
                .add("total_tokens", usage.get("total_tokens") instanceof JsonNumber n ? n.longValue() : input + output)
                .add("prompt_tokens_details", JSON.createObjectBuilder().add("cached_tokens", cached))
                .add("completion_tokens_details", JSON.createObjectBuilder().add("reasoning_tokens", reasoning))
                .build();
    }

    private static long count(JsonObject object, String name) {
        return object.get(name) instanceof JsonNumber n && n.isIntegral() ? Math.max(0, n.longValue()) : 0;
    }
}
