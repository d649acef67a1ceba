package dev.baton.impl.translate;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.baton.impl.translate.OpenAiRequestReading.optString;
import static dev.baton.impl.translate.OpenAiRequestReading.present;

/**
 * An OpenAI Responses request ({@code POST /v1/responses}) as a chat-completions body, for every target that does not
 * speak the Responses API itself: their adapters already translate chat. Whatever chat cannot carry is refused with an
 * {@link UntranslatableRequestException} naming the field as a path ({@code tools[2]}, {@code input[1].content[0]}),
 * never its content, so the engine moves on to a target that can honour it. Nothing the caller sent is dropped
 * silently, except OpenAI's own reasoning state (see {@link #REASONING}) and members whose value is {@code null}.
 */
public final class ResponsesRequests {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    /** Copied as they are: chat has the same field with the same meaning. */
    private static final List<String> COPIED = List.of("model", "parallel_tool_calls", "temperature", "top_p", "user",
            "safety_identifier", "prompt_cache_key", "metadata", "service_tier");

    /** Read below, each by its own rule. */
    private static final Set<String> READ = Set.of("stream", "instructions", "input", "tools", "tool_choice",
            "max_output_tokens", "reasoning", "text", "store", "stream_options", "truncation", "include", "background",
            "previous_response_id", "conversation", "prompt", "top_logprobs");

    /**
     * The input item type of OpenAI's reasoning state. Dropped: its {@code encrypted_content} is readable only by
     * OpenAI's own models, and its summary was written for the caller, not as a turn of the conversation.
     */
    private static final String REASONING = "reasoning";

    private static final String TOOL_CHOICE_EXPECTED =
            "expected auto, none, required or {\"type\":\"function\",\"name\":…}";

    private ResponsesRequests() {
    }

    /** The chat-completions body that asks what {@code responses} asks. */
    public static JsonObject toChat(JsonObject responses) {
        refuseWhatChatCannotCarry(responses);
        JsonObjectBuilder chat = JSON.createObjectBuilder();
        for (String field : COPIED) {
            if (present(responses, field)) {
                chat.add(field, responses.get(field));
            }
        }
        if (present(responses, "stream")) {
            chat.add("stream", responses.get("stream"));
            if (responses.get("stream") == JsonValue.TRUE) {
                // response.completed carries the usage: the chat stream must end with it.
                chat.add("stream_options", JSON.createObjectBuilder().add("include_usage", true));
            }
        }
        chat.add("messages", messages(responses));
        if (present(responses, "tools")) {
            chat.add("tools", tools(responses.get("tools")));
        }
        if (present(responses, "tool_choice")) {
            chat.add("tool_choice", toolChoice(responses.get("tool_choice")));
        }
        if (present(responses, "max_output_tokens")) {
            chat.add("max_completion_tokens", responses.get("max_output_tokens"));
        }
        reasoning(responses, chat);
        text(responses, chat);
        return chat.build();
    }

    /** The top-level fields chat has no place for, and any field this code does not know. */
    private static void refuseWhatChatCannotCarry(JsonObject body) {
        for (var member : body.entrySet()) {
            String field = member.getKey();
            if (member.getValue() != JsonValue.NULL && !COPIED.contains(field) && !READ.contains(field)) {
                throw new UntranslatableRequestException(field, "is not translated to chat completions");
            }
        }
        if (present(body, "previous_response_id")) {
            throw new UntranslatableRequestException("previous_response_id",
                    "a stored response lives only in the OpenAI account that made it");
        }
        if (present(body, "conversation")) {
            throw new UntranslatableRequestException("conversation",
                    "a stored conversation lives only in the OpenAI account that made it");
        }
        if (present(body, "prompt")) {
            throw new UntranslatableRequestException("prompt",
                    "a stored prompt template lives only in the OpenAI account that made it");
        }
        if (present(body, "background") && body.get("background") != JsonValue.FALSE) {
            throw new UntranslatableRequestException("background", "only OpenAI's Responses API runs in the background");
        }
        if (present(body, "include") && !(body.get("include") instanceof JsonArray include && include.isEmpty())) {
            throw new UntranslatableRequestException("include", "chat completions have none of the extra outputs");
        }
        if (present(body, "truncation") && !"disabled".equals(optString(body, "truncation"))) {
            throw new UntranslatableRequestException("truncation", "only \"disabled\" can be honoured");
        }
        if (present(body, "top_logprobs")
                && !(body.get("top_logprobs") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 0)) {
            throw new UntranslatableRequestException("top_logprobs", "log probabilities are not translated");
        }
    }

    // ---- input ----

    private static JsonArray messages(JsonObject body) {
        Messages messages = new Messages();
        if (present(body, "instructions")) {
            if (!(body.get("instructions") instanceof JsonString instructions)) {
                throw new UntranslatableRequestException("instructions", "must be a string");
            }
            messages.add(message("system", instructions));
        }
        JsonValue input = body.get("input");
        if (input instanceof JsonString text) {
            messages.add(message("user", text));
        } else if (input instanceof JsonArray items) {
            for (int i = 0; i < items.size(); i++) {
                item(items.get(i), "input[" + i + "]", messages);
            }
        } else {
            throw new UntranslatableRequestException("input", "must be a string or an array of items");
        }
        return messages.build();
    }

    /** The chat messages so far; the last assistant message can still take tool calls. */
    private static final class Messages {
        private final List<JsonObject> list = new ArrayList<>();

        void add(JsonObject message) {
            list.add(message);
        }

        /** {@code call} added to the last message when it is the assistant's, else in a new assistant message. */
        void addToolCall(JsonObject call) {
            JsonObject last = list.isEmpty() ? null : list.get(list.size() - 1);
            if (last != null && "assistant".equals(optString(last, "role"))) {
                JsonArrayBuilder calls = last.get("tool_calls") instanceof JsonArray earlier
                        ? JSON.createArrayBuilder(earlier) : JSON.createArrayBuilder();
                list.set(list.size() - 1, JSON.createObjectBuilder(last).add("tool_calls", calls.add(call)).build());
            } else {
                list.add(JSON.createObjectBuilder().add("role", "assistant").addNull("content")
                        .add("tool_calls", JSON.createArrayBuilder().add(call)).build());
            }
        }

        JsonArray build() {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            list.forEach(array::add);
            return array.build();
        }
    }

    private static JsonObject message(String role, JsonValue content) {
        return JSON.createObjectBuilder().add("role", role).add("content", content).build();
    }

    private static void item(JsonValue value, String at, Messages messages) {
        if (!(value instanceof JsonObject item)) {
            throw new UntranslatableRequestException(at, "must be an object");
        }
        String type = present(item, "type") ? optString(item, "type") : "message";
        if (type == null) {
            throw new UntranslatableRequestException(at + ".type", "must be a string");
        }
        switch (type) {
            case "message" -> messages.add(messageItem(item, at));
            case "function_call" -> messages.addToolCall(functionCall(item, at));
            case "function_call_output" -> messages.add(functionCallOutput(item, at));
            case REASONING -> {
                // Dropped: see REASONING.
            }
            default -> throw new UntranslatableRequestException(at,
                    "input items of type " + quoted(type) + " are not translated to chat completions");
        }
    }

    private static JsonObject messageItem(JsonObject item, String at) {
        String role = optString(item, "role");
        if (role == null) {
            throw new UntranslatableRequestException(at + ".role", "must be a string");
        }
        JsonValue content = item.get("content");
        String contentAt = at + ".content";
        return switch (role) {
            case "user" -> message(role, content instanceof JsonString ? content : userParts(content, contentAt));
            case "system", "developer" -> message(role, content instanceof JsonString ? content
                    : textParts(content, contentAt));
            case "assistant" -> message(role, content instanceof JsonString ? content
                    : JSON.createValue(assistantText(content, contentAt)));
            default -> throw new UntranslatableRequestException(at + ".role",
                    quoted(role) + " is not translated; expected user, assistant, system or developer");
        };
    }

    private static JsonArray parts(JsonValue content, String at) {
        if (content instanceof JsonArray parts) {
            return parts;
        }
        throw new UntranslatableRequestException(at, "must be a string or an array of parts");
    }

    /** A user message's parts: text and images by URL. */
    private static JsonArray userParts(JsonValue content, String at) {
        JsonArray parts = parts(content, at);
        JsonArrayBuilder chat = JSON.createArrayBuilder();
        for (int j = 0; j < parts.size(); j++) {
            String partAt = at + "[" + j + "]";
            JsonObject part = part(parts.get(j), partAt);
            if ("input_image".equals(optString(part, "type"))) {
                chat.add(image(part, partAt));
            } else {
                chat.add(textPart(text(part, partAt, false)));
            }
        }
        return chat.build();
    }

    private static JsonObject image(JsonObject part, String at) {
        String url = optString(part, "image_url");
        if (url == null) {
            throw new UntranslatableRequestException(at, present(part, "file_id")
                    ? "an uploaded file lives only in the OpenAI account that made it; send the image by URL"
                    : "needs an image_url");
        }
        if (!url.startsWith("https://") && !url.startsWith("http://") && !url.startsWith("data:")) {
            throw new UntranslatableRequestException(at + ".image_url", "must be an http(s) or data: URL");
        }
        JsonObjectBuilder imageUrl = JSON.createObjectBuilder().add("url", url);
        if (present(part, "detail")) {
            imageUrl.add("detail", part.get("detail"));
        }
        return JSON.createObjectBuilder().add("type", "image_url").add("image_url", imageUrl).build();
    }

    /** A system or developer message's parts: text only. */
    private static JsonArray textParts(JsonValue content, String at) {
        JsonArray parts = parts(content, at);
        JsonArrayBuilder chat = JSON.createArrayBuilder();
        for (int j = 0; j < parts.size(); j++) {
            String partAt = at + "[" + j + "]";
            chat.add(textPart(text(part(parts.get(j), partAt), partAt, false)));
        }
        return chat.build();
    }

    /** An assistant message's parts, all text (an earlier refusal is what the model said): one string. */
    private static String assistantText(JsonValue content, String at) {
        JsonArray parts = parts(content, at);
        StringBuilder text = new StringBuilder();
        for (int j = 0; j < parts.size(); j++) {
            String partAt = at + "[" + j + "]";
            text.append(text(part(parts.get(j), partAt), partAt, true));
        }
        return text.toString();
    }

    private static JsonObject part(JsonValue value, String at) {
        if (value instanceof JsonObject part) {
            return part;
        }
        throw new UntranslatableRequestException(at, "must be an object");
    }

    /** The text of an input_text or output_text part, or of a refusal when {@code refusals} are read as text. */
    private static String text(JsonObject part, String at, boolean refusals) {
        String type = optString(part, "type");
        String field = "input_text".equals(type) || "output_text".equals(type) ? "text"
                : refusals && "refusal".equals(type) ? "refusal" : null;
        if (field == null) {
            throw new UntranslatableRequestException(at, type == null ? "needs a type"
                    : "content parts of type " + quoted(type) + " are not translated here");
        }
        String text = optString(part, field);
        if (text == null) {
            throw new UntranslatableRequestException(at + "." + field, "must be a string");
        }
        return text;
    }

    private static JsonObject textPart(String text) {
        return JSON.createObjectBuilder().add("type", "text").add("text", text).build();
    }

    private static JsonObject functionCall(JsonObject item, String at) {
        String callId = required(item, "call_id", at);
        String name = required(item, "name", at);
        String arguments = required(item, "arguments", at);
        return JSON.createObjectBuilder().add("id", callId).add("type", "function")
                .add("function", JSON.createObjectBuilder().add("name", name).add("arguments", arguments))
                .build();
    }

    private static JsonObject functionCallOutput(JsonObject item, String at) {
        String callId = required(item, "call_id", at);
        JsonValue output = item.get("output");
        JsonValue content;
        if (output instanceof JsonString) {
            content = output;
        } else if (output instanceof JsonArray parts) {
            JsonArrayBuilder texts = JSON.createArrayBuilder();
            for (int j = 0; j < parts.size(); j++) {
                String partAt = at + ".output[" + j + "]";
                JsonObject part = part(parts.get(j), partAt);
                if (!"input_text".equals(optString(part, "type"))) {
                    throw new UntranslatableRequestException(partAt, "only input_text parts are translated in a tool's output");
                }
                texts.add(textPart(text(part, partAt, false)));
            }
            content = texts.build();
        } else {
            throw new UntranslatableRequestException(at + ".output", "must be a string or an array of parts");
        }
        return JSON.createObjectBuilder().add("role", "tool").add("tool_call_id", callId).add("content", content)
                .build();
    }

    private static String required(JsonObject item, String field, String at) {
        String value = optString(item, field);
        if (value == null) {
            throw new UntranslatableRequestException(at + "." + field, "must be a string");
        }
        return value;
    }

    // ---- tools ----

    private static JsonArray tools(JsonValue value) {
        if (!(value instanceof JsonArray tools)) {
            throw new UntranslatableRequestException("tools", "must be an array");
        }
        JsonArrayBuilder chat = JSON.createArrayBuilder();
        for (int i = 0; i < tools.size(); i++) {
            String at = "tools[" + i + "]";
            if (!(tools.get(i) instanceof JsonObject tool) || optString(tool, "type") == null) {
                throw new UntranslatableRequestException(at, "must be an object with a type");
            }
            String type = optString(tool, "type");
            if (!"function".equals(type)) {
                throw new UntranslatableRequestException(at,
                        "hosted tool " + quoted(type) + " runs only on OpenAI's Responses API");
            }
            JsonObjectBuilder function = JSON.createObjectBuilder().add("name", required(tool, "name", at));
            for (String field : List.of("description", "parameters", "strict")) {
                if (present(tool, field)) {
                    function.add(field, tool.get(field));
                }
            }
            chat.add(JSON.createObjectBuilder().add("type", "function").add("function", function));
        }
        return chat.build();
    }

    private static JsonValue toolChoice(JsonValue choice) {
        if (choice instanceof JsonString s && Set.of("auto", "none", "required").contains(s.getString())) {
            return s;
        }
        if (choice instanceof JsonObject o && "function".equals(optString(o, "type")) && optString(o, "name") != null) {
            return JSON.createObjectBuilder().add("type", "function")
                    .add("function", JSON.createObjectBuilder().add("name", optString(o, "name"))).build();
        }
        throw new UntranslatableRequestException("tool_choice", TOOL_CHOICE_EXPECTED);
    }

    // ---- reasoning and text ----

    /** {@code reasoning.effort}; the summary OpenAI can write of its reasoning is not asked of other models. */
    private static void reasoning(JsonObject body, JsonObjectBuilder chat) {
        if (!present(body, "reasoning")) {
            return;
        }
        if (!(body.get("reasoning") instanceof JsonObject reasoning)) {
            throw new UntranslatableRequestException("reasoning", "must be an object");
        }
        if (present(reasoning, "effort")) {
            chat.add("reasoning_effort", reasoning.get("effort"));
        }
    }

    private static void text(JsonObject body, JsonObjectBuilder chat) {
        if (!present(body, "text")) {
            return;
        }
        if (!(body.get("text") instanceof JsonObject text)) {
            throw new UntranslatableRequestException("text", "must be an object");
        }
        if (present(text, "format")) {
            JsonObject responseFormat = responseFormat(text.get("format"));
            if (responseFormat != null) {
                chat.add("response_format", responseFormat);
            }
        }
        if (present(text, "verbosity")) {
            chat.add("verbosity", text.get("verbosity"));
        }
    }

    /** {@code text.format} as chat's {@code response_format}; null for plain text, chat's default. */
    private static JsonObject responseFormat(JsonValue value) {
        String type = value instanceof JsonObject format ? optString(format, "type") : null;
        if (type == null) {
            throw new UntranslatableRequestException("text.format", "must be an object with a type");
        }
        JsonObject format = (JsonObject) value;
        return switch (type) {
            case "text" -> null;
            case "json_object" -> JSON.createObjectBuilder().add("type", "json_object").build();
            case "json_schema" -> {
                JsonObjectBuilder schema = JSON.createObjectBuilder()
                        .add("name", required(format, "name", "text.format"));
                if (!(format.get("schema") instanceof JsonObject)) {
                    throw new UntranslatableRequestException("text.format.schema", "must be a JSON Schema object");
                }
                schema.add("schema", format.get("schema"));
                for (String field : List.of("strict", "description")) {
                    if (present(format, field)) {
                        schema.add(field, format.get(field));
                    }
                }
                yield JSON.createObjectBuilder().add("type", "json_schema").add("json_schema", schema).build();
            }
            default -> throw new UntranslatableRequestException("text.format.type",
                    "expected text, json_object or json_schema");
        };
    }

    /**
     * A type name for a refusal: OpenAI's names are short identifiers, anything else (which may be content) is not
     * echoed.
     */
    private static String quoted(String name) {
        return name.matches("[a-z0-9_]{1,60}") ? "`" + name + "`" : "`(not shown)`";
    }
}
