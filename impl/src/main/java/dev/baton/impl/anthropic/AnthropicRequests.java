package dev.baton.impl.anthropic;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenAI chat-completions body to an Anthropic Messages body. A pure function: no I/O, no
 * clock, no logging. What translates, what is dropped and what is refused is the table in
 * {@code docs/providers.md}; a refusal is an {@link UntranslatableRequestException} naming the
 * field, never echoing its content.
 */
public final class AnthropicRequests {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    /** Default max_tokens when the caller sent neither max_tokens nor max_completion_tokens (Anthropic requires it). */
    public static final int DEFAULT_MAX_TOKENS = 4096;

    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+);base64,(.*)", Pattern.DOTALL);
    /** Anthropic's tool_use id alphabet; other characters (from other providers' ids) become '_'. */
    private static final Pattern NOT_ID = Pattern.compile("[^a-zA-Z0-9_-]");
    private static final BigDecimal ONE = BigDecimal.ONE;

    private AnthropicRequests() {
    }

    /**
     * Translates an OpenAI chat-completions body into an Anthropic Messages body for {@code model}.
     *
     * @throws UntranslatableRequestException naming the field, when the request asks for something
     *         Anthropic cannot honour under the documented rule
     */
    public static JsonObject toAnthropic(JsonObject openAiBody, String model, boolean stream) {
        JsonObject body = openAiBody;
        // Built from scratch: every field not read below (unknown ones too) is dropped.
        refuseWhatCannotBeHonoured(body);
        JsonObjectBuilder out = JSON.createObjectBuilder().add("model", model);
        Conversation conversation = conversation(body.get("messages"));
        if (!conversation.system.isEmpty()) {
            out.add("system", String.join("\n", conversation.system));
        }
        out.add("messages", conversation.messages());
        out.add("max_tokens", maxTokens(body));
        stopSequences(body, out);
        if (present(body, "temperature")) {
            BigDecimal t = number(body, "temperature").bigDecimalValue();
            // OpenAI's range is 0–2, Anthropic's 0–1: cap as Anthropic's own compatibility layer does.
            out.add("temperature", t.compareTo(ONE) > 0 ? JSON.createValue(1) : body.get("temperature"));
        }
        if (present(body, "top_p")) {
            out.add("top_p", number(body, "top_p"));
        }
        boolean hasTools = tools(body, out);
        toolChoice(body, hasTools, out);
        if (present(body, "user")) {
            out.add("metadata", JSON.createObjectBuilder().add("user_id", string(body, "user")));
        }
        out.add("stream", stream);
        return out.build();
    }

    /** The fields that would change the answer if dropped: refused before anything is built. */
    private static void refuseWhatCannotBeHonoured(JsonObject body) {
        if (present(body, "n") && !(body.get("n") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 1)) {
            throw new UntranslatableRequestException("n", "Anthropic returns one choice; only n=1 can be honoured");
        }
        if (present(body, "logprobs") && body.get("logprobs") != JsonValue.FALSE) {
            throw new UntranslatableRequestException("logprobs", "Anthropic does not return log probabilities");
        }
        if (present(body, "top_logprobs")
                && !(body.get("top_logprobs") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 0)) {
            throw new UntranslatableRequestException("top_logprobs", "Anthropic does not return log probabilities");
        }
        if (present(body, "response_format")
                && !(body.get("response_format") instanceof JsonObject format && "text".equals(optString(format, "type")))) {
            throw new UntranslatableRequestException("response_format",
                    "only {\"type\":\"text\"} can be honoured; json_object and json_schema cannot be enforced");
        }
        if (present(body, "audio")) {
            throw new UntranslatableRequestException("audio", "Anthropic does not produce audio");
        }
        if (body.get("modalities") instanceof JsonArray modalities && modalities.contains(JSON.createValue("audio"))) {
            throw new UntranslatableRequestException("modalities", "Anthropic does not produce audio");
        }
        if (present(body, "functions") || present(body, "function_call")) {
            throw new UntranslatableRequestException(present(body, "functions") ? "functions" : "function_call",
                    "the deprecated functions API is not translated; use tools and tool_choice");
        }
    }

    // ---- messages ----

    /** The hoisted system prompt and the turns, consecutive same-role turns merged. */
    private record Conversation(List<String> system, List<Turn> turns) {
        JsonArrayBuilder messages() {
            JsonArrayBuilder messages = JSON.createArrayBuilder();
            for (Turn turn : turns) {
                JsonArrayBuilder blocks = JSON.createArrayBuilder();
                turn.blocks.forEach(blocks::add);
                messages.add(JSON.createObjectBuilder().add("role", turn.role).add("content", blocks));
            }
            return messages;
        }

        /** Appends blocks to the last turn when it has the same role (roles must alternate), else opens a turn. */
        void add(String role, List<JsonObject> blocks) {
            if (blocks.isEmpty()) {
                return; // e.g. an assistant message with content "" and no tool calls
            }
            if (!turns.isEmpty() && turns.get(turns.size() - 1).role.equals(role)) {
                turns.get(turns.size() - 1).blocks.addAll(blocks);
            } else {
                turns.add(new Turn(role, new ArrayList<>(blocks)));
            }
        }
    }

    private record Turn(String role, List<JsonObject> blocks) {
    }

    private static Conversation conversation(JsonValue value) {
        if (!(value instanceof JsonArray messages) || messages.isEmpty()) {
            throw new UntranslatableRequestException("messages", "must be a non-empty array");
        }
        Conversation conversation = new Conversation(new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < messages.size(); i++) {
            String at = "messages[" + i + "]";
            if (!(messages.get(i) instanceof JsonObject message)) {
                throw new UntranslatableRequestException(at, "must be an object");
            }
            String role = optString(message, "role");
            if (role == null) {
                throw new UntranslatableRequestException(at + ".role", "must be a string");
            }
            switch (role) {
                case "system", "developer" -> texts(message.get("content"), at + ".content").stream()
                        .filter(text -> !text.isEmpty()).forEach(conversation.system::add);
                case "user" -> conversation.add("user", userBlocks(message.get("content"), at + ".content"));
                case "assistant" -> conversation.add("assistant", assistantBlocks(message, at));
                case "tool" -> conversation.add("user", List.of(toolResult(message, at)));
                default -> throw new UntranslatableRequestException(at + ".role",
                        "'" + role + "' is not translated; expected system, developer, user, assistant or tool");
            }
        }
        if (conversation.turns.isEmpty()) {
            throw new UntranslatableRequestException("messages", "no user or assistant content to send");
        }
        return conversation;
    }

    /** The text of a content that may hold only text: a string, or text parts. */
    private static List<String> texts(JsonValue content, String at) {
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

    private static List<JsonObject> userBlocks(JsonValue content, String at) {
        List<JsonObject> blocks = new ArrayList<>();
        if (content instanceof JsonArray parts) {
            for (int j = 0; j < parts.size(); j++) {
                String partAt = at + "[" + j + "]";
                if (parts.get(j) instanceof JsonObject part && "image_url".equals(optString(part, "type"))) {
                    blocks.add(image(part, partAt));
                } else {
                    addText(blocks, textPart(parts.get(j), partAt));
                }
            }
            return blocks;
        }
        texts(content, at).forEach(text -> addText(blocks, text));
        return blocks;
    }

    /** Anthropic refuses empty text blocks; an empty text says nothing, so it is left out. */
    private static void addText(List<JsonObject> blocks, String text) {
        if (!text.isEmpty()) {
            blocks.add(JSON.createObjectBuilder().add("type", "text").add("text", text).build());
        }
    }

    private static JsonObject image(JsonObject part, String at) {
        JsonValue imageUrl = part.get("image_url");
        String url = imageUrl instanceof JsonObject o ? optString(o, "url")
                : imageUrl instanceof JsonString s ? s.getString() : null;
        if (url == null) {
            throw new UntranslatableRequestException(at + ".image_url.url", "must be a string");
        }
        JsonObjectBuilder source = JSON.createObjectBuilder();
        Matcher data = DATA_URL.matcher(url);
        if (data.matches()) {
            source.add("type", "base64").add("media_type", data.group(1)).add("data", data.group(2));
        } else if (url.regionMatches(true, 0, "https://", 0, 8)) {
            source.add("type", "url").add("url", url);
        } else {
            throw new UntranslatableRequestException(at + ".image_url.url",
                    "only https URLs and data:<mime>;base64 URLs are translated");
        }
        return JSON.createObjectBuilder().add("type", "image").add("source", source).build();
    }

    private static List<JsonObject> assistantBlocks(JsonObject message, String at) {
        List<JsonObject> blocks = new ArrayList<>();
        JsonValue content = message.get("content");
        if (content instanceof JsonArray parts) {
            for (int j = 0; j < parts.size(); j++) {
                // An earlier answer's refusal part is text the model said.
                if (parts.get(j) instanceof JsonObject part && "refusal".equals(optString(part, "type"))
                        && part.get("refusal") instanceof JsonString refusal) {
                    addText(blocks, refusal.getString());
                } else {
                    addText(blocks, textPart(parts.get(j), at + ".content[" + j + "]"));
                }
            }
        } else {
            texts(content, at + ".content").forEach(text -> addText(blocks, text));
        }
        if (present(message, "function_call")) {
            throw new UntranslatableRequestException(at + ".function_call",
                    "the deprecated functions API is not translated; use tool_calls");
        }
        if (message.get("tool_calls") instanceof JsonArray calls) {
            for (int j = 0; j < calls.size(); j++) {
                blocks.add(toolUse(calls.get(j), at + ".tool_calls[" + j + "]"));
            }
        } else if (present(message, "tool_calls")) {
            throw new UntranslatableRequestException(at + ".tool_calls", "must be an array");
        }
        return blocks;
    }

    private static JsonObject toolUse(JsonValue value, String at) {
        if (!(value instanceof JsonObject call) || !(call.get("function") instanceof JsonObject function)) {
            throw new UntranslatableRequestException(at, "must be a function tool call");
        }
        String id = optString(call, "id");
        String name = optString(function, "name");
        if (id == null || name == null) {
            throw new UntranslatableRequestException(at, "needs an id and a function.name");
        }
        return JSON.createObjectBuilder()
                .add("type", "tool_use")
                .add("id", toolId(id))
                .add("name", name)
                .add("input", arguments(function.get("arguments"), at + ".function.arguments"))
                .build();
    }

    /** The arguments string parsed: Anthropic takes the input as a JSON object. An empty string is {}. */
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

    private static JsonObject toolResult(JsonObject message, String at) {
        String id = optString(message, "tool_call_id");
        if (id == null) {
            throw new UntranslatableRequestException(at + ".tool_call_id", "must be a string");
        }
        JsonObjectBuilder result = JSON.createObjectBuilder().add("type", "tool_result").add("tool_use_id", toolId(id));
        JsonValue content = message.get("content");
        if (content instanceof JsonArray) {
            JsonArrayBuilder blocks = JSON.createArrayBuilder();
            List<JsonObject> texts = new ArrayList<>();
            texts(content, at + ".content").forEach(text -> addText(texts, text));
            texts.forEach(blocks::add);
            if (!texts.isEmpty()) {
                result.add("content", blocks);
            }
        } else {
            String text = String.join("", texts(content, at + ".content"));
            if (!text.isEmpty()) {
                result.add("content", text);
            }
        }
        return result.build();
    }

    private static String toolId(String id) {
        return NOT_ID.matcher(id).replaceAll("_");
    }

    // ---- parameters ----

    private static int maxTokens(JsonObject body) {
        String field = present(body, "max_completion_tokens") ? "max_completion_tokens"
                : present(body, "max_tokens") ? "max_tokens" : null;
        if (field == null) {
            return DEFAULT_MAX_TOKENS;
        }
        JsonNumber n = number(body, field);
        BigDecimal value = n.bigDecimalValue();
        if (!n.isIntegral() || value.signum() <= 0 || value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new UntranslatableRequestException(field, "must be a positive whole number");
        }
        return n.intValue();
    }

    private static void stopSequences(JsonObject body, JsonObjectBuilder out) {
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
        // Anthropic rejects whitespace-only stop sequences; they are dropped.
        sequences.removeIf(String::isBlank);
        if (!sequences.isEmpty()) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            sequences.forEach(array::add);
            out.add("stop_sequences", array);
        }
    }

    /** {@code tools[{type:function,function{…}}]} to Anthropic tools; true when there is at least one. */
    private static boolean tools(JsonObject body, JsonObjectBuilder out) {
        if (!present(body, "tools")) {
            return false;
        }
        if (!(body.get("tools") instanceof JsonArray tools)) {
            throw new UntranslatableRequestException("tools", "must be an array");
        }
        JsonArrayBuilder translated = JSON.createArrayBuilder();
        for (int i = 0; i < tools.size(); i++) {
            String at = "tools[" + i + "]";
            if (!(tools.get(i) instanceof JsonObject tool) || !"function".equals(optString(tool, "type"))
                    || !(tool.get("function") instanceof JsonObject function)) {
                throw new UntranslatableRequestException(at, "only function tools are translated");
            }
            String name = optString(function, "name");
            if (name == null) {
                throw new UntranslatableRequestException(at + ".function.name", "must be a string");
            }
            JsonObjectBuilder anthropic = JSON.createObjectBuilder().add("name", name);
            if (optString(function, "description") != null) {
                anthropic.add("description", optString(function, "description"));
            }
            if (function.get("parameters") instanceof JsonObject parameters) {
                anthropic.add("input_schema", parameters);
            } else if (present(function, "parameters")) {
                throw new UntranslatableRequestException(at + ".function.parameters", "must be a JSON Schema object");
            } else {
                // OpenAI allows a tool without parameters; Anthropic requires a schema.
                anthropic.add("input_schema", JSON.createObjectBuilder().add("type", "object")
                        .add("properties", JsonValue.EMPTY_JSON_OBJECT));
            }
            translated.add(anthropic); // function.strict is dropped, as Anthropic's compatibility layer does
        }
        JsonArray array = translated.build();
        if (array.isEmpty()) {
            return false;
        }
        out.add("tools", array);
        return true;
    }

    private static void toolChoice(JsonObject body, boolean hasTools, JsonObjectBuilder out) {
        boolean serial = body.get("parallel_tool_calls") == JsonValue.FALSE;
        JsonValue choice = body.get("tool_choice");
        JsonObjectBuilder anthropic;
        String type;
        if (choice == null || choice == JsonValue.NULL) {
            if (!serial || !hasTools) {
                return; // no tools: nothing to call in parallel
            }
            anthropic = JSON.createObjectBuilder().add("type", "auto");
            type = "auto";
        } else if (choice instanceof JsonString s) {
            type = switch (s.getString()) {
                case "auto" -> "auto";
                case "required" -> "any";
                case "none" -> "none";
                default -> throw new UntranslatableRequestException("tool_choice",
                        "expected auto, required, none or {\"type\":\"function\",\"function\":{\"name\":…}}");
            };
            anthropic = JSON.createObjectBuilder().add("type", type);
        } else if (choice instanceof JsonObject o && "function".equals(optString(o, "type"))
                && o.get("function") instanceof JsonObject f && optString(f, "name") != null) {
            type = "tool";
            anthropic = JSON.createObjectBuilder().add("type", "tool").add("name", optString(f, "name"));
        } else {
            throw new UntranslatableRequestException("tool_choice",
                    "expected auto, required, none or {\"type\":\"function\",\"function\":{\"name\":…}}");
        }
        if (serial && !"none".equals(type)) {
            anthropic.add("disable_parallel_tool_use", true); // {type:none} has no such field
        }
        out.add("tool_choice", anthropic);
    }

    // ---- JSON helpers ----

    private static boolean present(JsonObject object, String field) {
        JsonValue value = object.get(field);
        return value != null && value != JsonValue.NULL;
    }

    private static String optString(JsonObject object, String field) {
        return object.get(field) instanceof JsonString s ? s.getString() : null;
    }

    private static String string(JsonObject object, String field) {
        if (object.get(field) instanceof JsonString s) {
            return s.getString();
        }
        throw new UntranslatableRequestException(field, "must be a string");
    }

    private static JsonNumber number(JsonObject object, String field) {
        if (object.get(field) instanceof JsonNumber n) {
            return n;
        }
        throw new UntranslatableRequestException(field, "must be a number");
    }
}
