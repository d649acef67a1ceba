package dev.baton.impl.translate;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An internal helper shared by Baton's own translators: reads the fields of an OpenAI chat-completions body into
 * plain values, refusing what cannot be read with an {@link UntranslatableRequestException} naming the field (never
 * echoing its content). What each provider builds from the values stays in its translator.
 */
public final class OpenAiRequestReading {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+);base64,(.*)", Pattern.DOTALL);
    /** The tool id alphabet of Anthropic and Bedrock; other characters (from other providers' ids) become '_'. */
    private static final Pattern NOT_ID = Pattern.compile("[^a-zA-Z0-9_-]");
    private static final String TOOL_CHOICE_EXPECTED =
            "expected auto, required, none or {\"type\":\"function\",\"function\":{\"name\":…}}";

    private OpenAiRequestReading() {
    }

    /**
     * Refuses the fields that would change the answer if dropped and that neither Anthropic nor Converse can honour:
     * several choices, log probabilities, an enforced JSON format, audio, the deprecated functions API.
     *
     * @param service the service, as in "… returns one choice"
     * @param api     the API, as in "… does not return log probabilities"
     */
    public static void refuseWhatCannotBeHonoured(JsonObject body, String service, String api) {
        if (present(body, "n") && !(body.get("n") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 1)) {
            throw new UntranslatableRequestException("n", service + " returns one choice; only n=1 can be honoured");
        }
        if (present(body, "logprobs") && body.get("logprobs") != JsonValue.FALSE) {
            throw new UntranslatableRequestException("logprobs", api + " does not return log probabilities");
        }
        if (present(body, "top_logprobs")
                && !(body.get("top_logprobs") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 0)) {
            throw new UntranslatableRequestException("top_logprobs", api + " does not return log probabilities");
        }
        if (present(body, "response_format")
                && !(body.get("response_format") instanceof JsonObject format && "text".equals(optString(format, "type")))) {
            throw new UntranslatableRequestException("response_format",
                    "only {\"type\":\"text\"} can be honoured; json_object and json_schema cannot be enforced");
        }
        if (present(body, "audio")) {
            throw new UntranslatableRequestException("audio", api + " does not produce audio");
        }
        if (body.get("modalities") instanceof JsonArray modalities && modalities.contains(JSON.createValue("audio"))) {
            throw new UntranslatableRequestException("modalities", api + " does not produce audio");
        }
        if (present(body, "functions") || present(body, "function_call")) {
            throw new UntranslatableRequestException(present(body, "functions") ? "functions" : "function_call",
                    "the deprecated functions API is not translated; use tools and tool_choice");
        }
    }

    // ---- messages ----

    /** Who speaks in a message: {@code developer} is read as {@code system}. */
    public enum Role { SYSTEM, USER, ASSISTANT, TOOL }

    /** One message of {@code messages}, its role read; {@code at} is its path, {@code messages[i]}. */
    public record Message(JsonObject json, Role role, String at) {
        public JsonValue content() {
            return json.get("content");
        }
    }

    /** {@code messages}, which must be a non-empty array; its elements are read one by one with {@link #message}. */
    public static JsonArray messages(JsonObject body) {
        if (!(body.get("messages") instanceof JsonArray messages) || messages.isEmpty()) {
            throw new UntranslatableRequestException("messages", "must be a non-empty array");
        }
        return messages;
    }

    /** The {@code i}th message: an object with a role this code translates. */
    public static Message message(JsonArray messages, int i) {
        String at = "messages[" + i + "]";
        if (!(messages.get(i) instanceof JsonObject message)) {
            throw new UntranslatableRequestException(at, "must be an object");
        }
        String role = optString(message, "role");
        if (role == null) {
            throw new UntranslatableRequestException(at + ".role", "must be a string");
        }
        return new Message(message, switch (role) {
            case "system", "developer" -> Role.SYSTEM;
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            case "tool" -> Role.TOOL;
            default -> throw new UntranslatableRequestException(at + ".role",
                    "'" + role + "' is not translated; expected system, developer, user, assistant or tool");
        }, at);
    }

    /** The refusal when no message is left to send once system messages are hoisted and empty ones dropped. */
    public static UntranslatableRequestException nothingToSend() {
        return new UntranslatableRequestException("messages", "no user or assistant content to send");
    }

    /** The text of a content that may hold only text: a string, or text parts; none for null. */
    public static List<String> texts(JsonValue content, String at) {
        List<String> texts = new ArrayList<>();
        if (content instanceof JsonString s) {
            texts.add(s.getString());
        } else if (content instanceof JsonArray parts) {
            for (int j = 0; j < parts.size(); j++) {
                texts.add(textPart(parts.get(j), at + "[" + j + "]"));
            }
        } else if (content != null && content != JsonValue.NULL) {
            throw new UntranslatableRequestException(at, "must be a string or an array of parts");
        }
        return texts;
    }

    private static String textPart(JsonValue part, String at) {
        if (part instanceof JsonObject p && "text".equals(optString(p, "type")) && p.get("text") instanceof JsonString t) {
            return t.getString();
        }
        throw new UntranslatableRequestException(at, "only text parts are translated here");
    }

    /**
     * A user message's content, part by part and in order: each text to {@code text}, each image part's URL to
     * {@code imageUrl} with the URL's path ({@code ….image_url.url}) for the translator's own refusals.
     */
    public static void userContent(JsonValue content, String at, Consumer<String> text,
            BiConsumer<String, String> imageUrl) {
        if (!(content instanceof JsonArray parts)) {
            texts(content, at).forEach(text);
            return;
        }
        for (int j = 0; j < parts.size(); j++) {
            String partAt = at + "[" + j + "]";
            if (parts.get(j) instanceof JsonObject part && "image_url".equals(optString(part, "type"))) {
                imageUrl.accept(imageUrl(part, partAt), partAt + ".image_url.url");
            } else {
                text.accept(textPart(parts.get(j), partAt));
            }
        }
    }

    private static String imageUrl(JsonObject part, String at) {
        JsonValue imageUrl = part.get("image_url");
        String url = imageUrl instanceof JsonObject o ? optString(o, "url")
                : imageUrl instanceof JsonString s ? s.getString() : null;
        if (url == null) {
            throw new UntranslatableRequestException(at + ".image_url.url", "must be a string");
        }
        return url;
    }

    /** An image carried in the request itself: its media type as written and its base64 bytes. */
    public record InlineImage(String mediaType, String base64) {
    }

    /** The image of a {@code data:<mime>;base64,…} URL; null for any other URL. */
    public static InlineImage inlineImage(String url) {
        Matcher data = DATA_URL.matcher(url);
        return data.matches() ? new InlineImage(data.group(1), data.group(2)) : null;
    }

    /**
     * The texts of an assistant message's content; an earlier answer's refusal part is text the model said. The
     * deprecated {@code function_call} is refused.
     */
    public static List<String> assistantTexts(Message message) {
        JsonValue content = message.content();
        if (!(content instanceof JsonArray parts)) {
            return texts(content, message.at() + ".content");
        }
        List<String> texts = new ArrayList<>();
        for (int j = 0; j < parts.size(); j++) {
            if (parts.get(j) instanceof JsonObject part && "refusal".equals(optString(part, "type"))
                    && part.get("refusal") instanceof JsonString refusal) {
                texts.add(refusal.getString());
            } else {
                texts.add(textPart(parts.get(j), message.at() + ".content[" + j + "]"));
            }
        }
        return texts;
    }

    /** A function tool call of an assistant message: its id as sent, its name and its parsed arguments. */
    public record ToolCall(String id, String name, JsonObject arguments) {
    }

    /** An assistant message's {@code tool_calls}, none when absent; the deprecated {@code function_call} is refused. */
    public static List<ToolCall> toolCalls(Message message) {
        if (present(message.json(), "function_call")) {
            throw new UntranslatableRequestException(message.at() + ".function_call",
                    "the deprecated functions API is not translated; use tool_calls");
        }
        List<ToolCall> calls = new ArrayList<>();
        if (message.json().get("tool_calls") instanceof JsonArray array) {
            for (int j = 0; j < array.size(); j++) {
                calls.add(toolCall(array.get(j), message.at() + ".tool_calls[" + j + "]"));
            }
        } else if (present(message.json(), "tool_calls")) {
            throw new UntranslatableRequestException(message.at() + ".tool_calls", "must be an array");
        }
        return calls;
    }

    private static ToolCall toolCall(JsonValue value, String at) {
        if (!(value instanceof JsonObject call) || !(call.get("function") instanceof JsonObject function)) {
            throw new UntranslatableRequestException(at, "must be a function tool call");
        }
        String id = optString(call, "id");
        String name = optString(function, "name");
        if (id == null || name == null) {
            throw new UntranslatableRequestException(at, "needs an id and a function.name");
        }
        return new ToolCall(id, name, arguments(function.get("arguments"), at + ".function.arguments"));
    }

    /** The arguments string parsed: the providers take the input as a JSON object. An empty string is {}. */
    private static JsonObject arguments(JsonValue value, String at) {
        if (value == null || value == JsonValue.NULL) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        if (!(value instanceof JsonString s)) {
            throw new UntranslatableRequestException(at, "must be a string of JSON");
        }
        if (s.getString().isBlank()) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        try (JsonReader reader = JSON.createReader(new StringReader(s.getString()))) {
            JsonValue parsed = reader.readValue();
            if (parsed instanceof JsonObject object) {
                return object;
            }
        } catch (RuntimeException e) {
            // Parsson's own limits (a number's length or exponent, nesting) throw plain RuntimeExceptions: refused
            // like any text that is no JSON, never thrown out of the adapter as a connection failure.
        }
        throw new UntranslatableRequestException(at, "is not a JSON object");
    }

    /** A tool message's {@code tool_call_id}. */
    public static String toolCallId(Message message) {
        String id = optString(message.json(), "tool_call_id");
        if (id == null) {
            throw new UntranslatableRequestException(message.at() + ".tool_call_id", "must be a string");
        }
        return id;
    }

    /** A tool call id in the alphabet Anthropic and Bedrock accept: every other character becomes '_'. */
    public static String toolId(String id) {
        return NOT_ID.matcher(id).replaceAll("_");
    }

    // ---- parameters ----

    /** {@code max_completion_tokens}, else {@code max_tokens}: a positive int; null when neither is sent. */
    public static Integer maxTokens(JsonObject body) {
        String field = present(body, "max_completion_tokens") ? "max_completion_tokens"
                : present(body, "max_tokens") ? "max_tokens" : null;
        if (field == null) {
            return null;
        }
        JsonNumber n = number(body, field);
        BigDecimal value = n.bigDecimalValue();
        if (!n.isIntegral() || value.signum() <= 0 || value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new UntranslatableRequestException(field, "must be a positive whole number");
        }
        return n.intValue();
    }

    /**
     * {@code temperature}, null when absent. OpenAI's range is 0–2, Anthropic's and Converse's 0–1: capped at 1, as
     * Anthropic's own compatibility layer does.
     */
    public static JsonNumber temperatureUpToOne(JsonObject body) {
        if (!present(body, "temperature")) {
            return null;
        }
        JsonNumber t = number(body, "temperature");
        return t.bigDecimalValue().compareTo(BigDecimal.ONE) > 0 ? JSON.createValue(1) : t;
    }

    /** {@code stop}: a string or an array of strings; none when absent. */
    public static List<String> stopSequences(JsonObject body) {
        JsonValue stop = body.get("stop");
        List<String> sequences = new ArrayList<>();
        if (stop instanceof JsonString s) {
            sequences.add(s.getString());
        } else if (stop instanceof JsonArray list) {
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof JsonString s)) {
                    throw new UntranslatableRequestException("stop[" + i + "]", "must be a string");
                }
                sequences.add(s.getString());
            }
        } else if (stop != null && stop != JsonValue.NULL) {
            throw new UntranslatableRequestException("stop", "must be a string or an array of strings");
        }
        return sequences;
    }

    /**
     * A function tool: its name, its description (null when none) and its parameters' JSON Schema; a tool without
     * parameters (OpenAI allows it) has the schema of no arguments, which both providers require.
     */
    public record Tool(String name, String description, JsonObject parameters) {
    }

    /** {@code tools[{type:function,function{…}}]}; none when absent. {@code function.strict} is not read. */
    public static List<Tool> tools(JsonObject body) {
        List<Tool> read = new ArrayList<>();
        if (!present(body, "tools")) {
            return read;
        }
        if (!(body.get("tools") instanceof JsonArray tools)) {
            throw new UntranslatableRequestException("tools", "must be an array");
        }
        for (int i = 0; i < tools.size(); i++) {
            read.add(tool(tools.get(i), "tools[" + i + "]"));
        }
        return read;
    }

    private static Tool tool(JsonValue value, String at) {
        if (!(value instanceof JsonObject tool) || !"function".equals(optString(tool, "type"))
                || !(tool.get("function") instanceof JsonObject function)) {
            throw new UntranslatableRequestException(at, "only function tools are translated");
        }
        String name = optString(function, "name");
        if (name == null) {
            throw new UntranslatableRequestException(at + ".function.name", "must be a string");
        }
        JsonObject parameters;
        if (function.get("parameters") instanceof JsonObject schema) {
            parameters = schema;
        } else if (present(function, "parameters")) {
            throw new UntranslatableRequestException(at + ".function.parameters", "must be a JSON Schema object");
        } else {
            parameters = JSON.createObjectBuilder().add("type", "object")
                    .add("properties", JsonValue.EMPTY_JSON_OBJECT).build();
        }
        return new Tool(name, optString(function, "description"), parameters);
    }

    /** What {@code tool_choice} asks: {@code FUNCTION} names the function. */
    public record ToolChoice(Kind kind, String function) {
        public enum Kind { AUTO, REQUIRED, NONE, FUNCTION }
    }

    /** {@code tool_choice}: auto, required, none or one named function; null when absent. */
    public static ToolChoice toolChoice(JsonObject body) {
        JsonValue choice = body.get("tool_choice");
        if (choice == null || choice == JsonValue.NULL) {
            return null;
        }
        if (choice instanceof JsonString s) {
            return switch (s.getString()) {
                case "auto" -> new ToolChoice(ToolChoice.Kind.AUTO, null);
                case "required" -> new ToolChoice(ToolChoice.Kind.REQUIRED, null);
                case "none" -> new ToolChoice(ToolChoice.Kind.NONE, null);
                default -> throw new UntranslatableRequestException("tool_choice", TOOL_CHOICE_EXPECTED);
            };
        }
        if (choice instanceof JsonObject o && "function".equals(optString(o, "type"))
                && o.get("function") instanceof JsonObject f && optString(f, "name") != null) {
            return new ToolChoice(ToolChoice.Kind.FUNCTION, optString(f, "name"));
        }
        throw new UntranslatableRequestException("tool_choice", TOOL_CHOICE_EXPECTED);
    }

    // ---- JSON helpers ----

    /** Whether {@code field} is there and not {@code null}. */
    public static boolean present(JsonObject object, String field) {
        JsonValue value = object.get(field);
        return value != null && value != JsonValue.NULL;
    }

    /** {@code field}'s string, null when it is absent or no string. */
    public static String optString(JsonObject object, String field) {
        return object.get(field) instanceof JsonString s ? s.getString() : null;
    }

    /** {@code field}'s number, refused when it is no number. */
    public static JsonNumber number(JsonObject object, String field) {
        if (object.get(field) instanceof JsonNumber n) {
            return n;
        }
        throw new UntranslatableRequestException(field, "must be a number");
    }
}
