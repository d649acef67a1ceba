package dev.baton.bedrock;

import dev.baton.impl.anthropic.UntranslatableRequestException;
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
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenAI chat-completions body to a Bedrock Converse body. A pure function: no I/O, no clock, no logging. What
 * cannot be honoured is refused with an {@link UntranslatableRequestException} naming the field, never echoing its
 * content; what would not change the answer (seed, penalties, user) is dropped.
 */
public final class ConverseRequests {

    private static final JsonProvider JSON = JsonProvider.provider();

    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+);base64,(.*)", Pattern.DOTALL);
    /** Bedrock's toolUseId alphabet; other characters (from other providers' ids) become '_'. */
    private static final Pattern NOT_ID = Pattern.compile("[^a-zA-Z0-9_-]");
    /** The image formats Converse reads, by media type. */
    private static final Map<String, String> IMAGE_FORMATS = Map.of("image/png", "png", "image/jpeg", "jpeg",
            "image/jpg", "jpeg", "image/gif", "gif", "image/webp", "webp");

    private ConverseRequests() {
    }

    /**
     * @throws UntranslatableRequestException naming the field, when Converse cannot honour the request
     */
    public static JsonObject toConverse(JsonObject body) {
        refuseWhatCannotBeHonoured(body);
        JsonObjectBuilder out = JSON.createObjectBuilder();
        Conversation conversation = conversation(body.get("messages"));
        out.add("messages", conversation.messages());
        if (!conversation.system.isEmpty()) {
            JsonArrayBuilder system = JSON.createArrayBuilder();
            conversation.system.forEach(text -> system.add(JSON.createObjectBuilder().add("text", text)));
            out.add("system", system);
        }
        JsonObjectBuilder inference = JSON.createObjectBuilder();
        maxTokens(body, inference);
        if (present(body, "temperature")) {
            BigDecimal t = number(body, "temperature").bigDecimalValue();
            // OpenAI's range is 0–2, Converse's 0–1: capped, as Anthropic's compatibility layer caps it.
            inference.add("temperature", t.compareTo(BigDecimal.ONE) > 0 ? JSON.createValue(1) : body.get("temperature"));
        }
        if (present(body, "top_p")) {
            inference.add("topP", number(body, "top_p"));
        }
        stopSequences(body, inference);
        JsonObject inferenceConfig = inference.build();
        if (!inferenceConfig.isEmpty()) {
            out.add("inferenceConfig", inferenceConfig);
        }
        toolConfig(body, conversation.usesTools, out);
        return out.build();
    }

    private static void refuseWhatCannotBeHonoured(JsonObject body) {
        if (present(body, "n") && !(body.get("n") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 1)) {
            throw new UntranslatableRequestException("n", "Bedrock returns one choice; only n=1 can be honoured");
        }
        if (present(body, "logprobs") && body.get("logprobs") != JsonValue.FALSE) {
            throw new UntranslatableRequestException("logprobs", "Bedrock Converse does not return log probabilities");
        }
        if (present(body, "top_logprobs")
                && !(body.get("top_logprobs") instanceof JsonNumber n && n.isIntegral() && n.intValue() == 0)) {
            throw new UntranslatableRequestException("top_logprobs",
                    "Bedrock Converse does not return log probabilities");
        }
        if (present(body, "response_format")
                && !(body.get("response_format") instanceof JsonObject format && "text".equals(optString(format, "type")))) {
            throw new UntranslatableRequestException("response_format",
                    "only {\"type\":\"text\"} can be honoured; json_object and json_schema cannot be enforced");
        }
        if (present(body, "audio")) {
            throw new UntranslatableRequestException("audio", "Bedrock Converse does not produce audio");
        }
        if (body.get("modalities") instanceof JsonArray modalities && modalities.contains(JSON.createValue("audio"))) {
            throw new UntranslatableRequestException("modalities", "Bedrock Converse does not produce audio");
        }
        if (present(body, "functions") || present(body, "function_call")) {
            throw new UntranslatableRequestException(present(body, "functions") ? "functions" : "function_call",
                    "the deprecated functions API is not translated; use tools and tool_choice");
        }
        if (body.get("parallel_tool_calls") == JsonValue.FALSE && body.get("tools") instanceof JsonArray tools
                && !tools.isEmpty()) {
            throw new UntranslatableRequestException("parallel_tool_calls",
                    "Bedrock Converse cannot be told to call one tool at a time");
        }
    }

    // ---- messages ----

    private static final class Conversation {
        final List<String> system = new ArrayList<>();
        final List<String> roles = new ArrayList<>();
        final List<List<JsonObject>> blocks = new ArrayList<>();
        boolean usesTools;

        /** Appends to the last turn when it has the same role (Converse's roles alternate), else opens a turn. */
        void add(String role, List<JsonObject> content) {
            if (content.isEmpty()) {
                return;
            }
            if (!roles.isEmpty() && roles.get(roles.size() - 1).equals(role)) {
                blocks.get(blocks.size() - 1).addAll(content);
            } else {
                roles.add(role);
                blocks.add(new ArrayList<>(content));
            }
        }

        JsonArrayBuilder messages() {
            JsonArrayBuilder messages = JSON.createArrayBuilder();
            for (int i = 0; i < roles.size(); i++) {
                JsonArrayBuilder content = JSON.createArrayBuilder();
                blocks.get(i).forEach(content::add);
                messages.add(JSON.createObjectBuilder().add("role", roles.get(i)).add("content", content));
            }
            return messages;
        }
    }

    private static Conversation conversation(JsonValue value) {
        if (!(value instanceof JsonArray messages) || messages.isEmpty()) {
            throw new UntranslatableRequestException("messages", "must be a non-empty array");
        }
        Conversation conversation = new Conversation();
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
                        .filter(text -> !text.isBlank()).forEach(conversation.system::add);
                case "user" -> conversation.add("user", userBlocks(message.get("content"), at + ".content"));
                case "assistant" -> conversation.add("assistant", assistantBlocks(message, at, conversation));
                case "tool" -> {
                    conversation.usesTools = true;
                    conversation.add("user", List.of(toolResult(message, at)));
                }
                default -> throw new UntranslatableRequestException(at + ".role",
                        "'" + role + "' is not translated; expected system, developer, user, assistant or tool");
            }
        }
        if (conversation.roles.isEmpty()) {
            throw new UntranslatableRequestException("messages", "no user or assistant content to send");
        }
        return conversation;
    }

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

    /** Converse refuses blank text blocks; a blank text says nothing, so it is left out. */
    private static void addText(List<JsonObject> blocks, String text) {
        if (!text.isBlank()) {
            blocks.add(JSON.createObjectBuilder().add("text", text).build());
        }
    }

    /** A data: URL's bytes (Converse's JSON carries them base64, as the URL does); Bedrock fetches no URL. */
    private static JsonObject image(JsonObject part, String at) {
        JsonValue imageUrl = part.get("image_url");
        String url = imageUrl instanceof JsonObject o ? optString(o, "url")
                : imageUrl instanceof JsonString s ? s.getString() : null;
        if (url == null) {
            throw new UntranslatableRequestException(at + ".image_url.url", "must be a string");
        }
        Matcher data = DATA_URL.matcher(url);
        if (!data.matches()) {
            throw new UntranslatableRequestException(at + ".image_url.url",
                    "Bedrock does not fetch image URLs; only data:<mime>;base64 URLs are translated");
        }
        String format = IMAGE_FORMATS.get(data.group(1).toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new UntranslatableRequestException(at + ".image_url.url",
                    "Bedrock reads png, jpeg, gif and webp images only");
        }
        return JSON.createObjectBuilder().add("image", JSON.createObjectBuilder().add("format", format)
                .add("source", JSON.createObjectBuilder().add("bytes", data.group(2).strip()))).build();
    }

    private static List<JsonObject> assistantBlocks(JsonObject message, String at, Conversation conversation) {
        List<JsonObject> blocks = new ArrayList<>();
        JsonValue content = message.get("content");
        if (content instanceof JsonArray parts) {
            for (int j = 0; j < parts.size(); j++) {
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
                conversation.usesTools = true;
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
        return JSON.createObjectBuilder().add("toolUse", JSON.createObjectBuilder()
                .add("toolUseId", toolId(id))
                .add("name", name)
                .add("input", arguments(function.get("arguments"), at + ".function.arguments"))).build();
    }

    /** The arguments string parsed: Converse takes the input as a JSON object. An empty string is {}. */
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
            // Parsson's own limits throw plain RuntimeExceptions: refused like any text that is no JSON.
        }
        throw new UntranslatableRequestException(at, "is not a JSON object");
    }

    private static JsonObject toolResult(JsonObject message, String at) {
        String id = optString(message, "tool_call_id");
        if (id == null) {
            throw new UntranslatableRequestException(at + ".tool_call_id", "must be a string");
        }
        JsonArrayBuilder content = JSON.createArrayBuilder();
        String text = String.join("", texts(message.get("content"), at + ".content"));
        // Converse needs at least one block; an empty result is said as such.
        content.add(JSON.createObjectBuilder().add("text", text.isEmpty() ? "(empty)" : text));
        return JSON.createObjectBuilder().add("toolResult", JSON.createObjectBuilder()
                .add("toolUseId", toolId(id))
                .add("content", content)).build();
    }

    private static String toolId(String id) {
        return NOT_ID.matcher(id).replaceAll("_");
    }

    // ---- parameters ----

    private static void maxTokens(JsonObject body, JsonObjectBuilder inference) {
        String field = present(body, "max_completion_tokens") ? "max_completion_tokens"
                : present(body, "max_tokens") ? "max_tokens" : null;
        if (field == null) {
            return; // Converse has the model's own default
        }
        JsonNumber n = number(body, field);
        BigDecimal value = n.bigDecimalValue();
        if (!n.isIntegral() || value.signum() <= 0 || value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new UntranslatableRequestException(field, "must be a positive whole number");
        }
        inference.add("maxTokens", n.intValue());
    }

    private static void stopSequences(JsonObject body, JsonObjectBuilder inference) {
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
        sequences.removeIf(String::isEmpty);
        if (!sequences.isEmpty()) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            sequences.forEach(array::add);
            inference.add("stopSequences", array);
        }
    }

    /**
     * {@code tools} and {@code tool_choice} to {@code toolConfig}. Converse has no "none": without tool history the
     * tools are left out (the model then cannot call one); with it, Converse needs the tools, so "none" is refused.
     */
    private static void toolConfig(JsonObject body, boolean usesTools, JsonObjectBuilder out) {
        JsonArrayBuilder specs = JSON.createArrayBuilder();
        int count = 0;
        if (present(body, "tools")) {
            if (!(body.get("tools") instanceof JsonArray tools)) {
                throw new UntranslatableRequestException("tools", "must be an array");
            }
            for (int i = 0; i < tools.size(); i++) {
                specs.add(toolSpec(tools.get(i), "tools[" + i + "]"));
                count++;
            }
        }
        JsonValue choice = body.get("tool_choice");
        JsonObjectBuilder toolChoice = null;
        if (choice instanceof JsonString s) {
            switch (s.getString()) {
                case "auto" -> toolChoice = JSON.createObjectBuilder().add("auto", JsonValue.EMPTY_JSON_OBJECT);
                case "required" -> toolChoice = JSON.createObjectBuilder().add("any", JsonValue.EMPTY_JSON_OBJECT);
                case "none" -> {
                    if (usesTools && count > 0) {
                        throw new UntranslatableRequestException("tool_choice",
                                "Bedrock Converse has no \"none\" for a conversation that already used tools");
                    }
                    count = 0;
                }
                default -> throw new UntranslatableRequestException("tool_choice",
                        "expected auto, required, none or {\"type\":\"function\",\"function\":{\"name\":…}}");
            }
        } else if (choice instanceof JsonObject o && "function".equals(optString(o, "type"))
                && o.get("function") instanceof JsonObject f && optString(f, "name") != null) {
            toolChoice = JSON.createObjectBuilder().add("tool", JSON.createObjectBuilder().add("name",
                    optString(f, "name")));
        } else if (choice != null && choice != JsonValue.NULL) {
            throw new UntranslatableRequestException("tool_choice",
                    "expected auto, required, none or {\"type\":\"function\",\"function\":{\"name\":…}}");
        }
        if (count == 0) {
            if (usesTools) {
                throw new UntranslatableRequestException("tools",
                        "Bedrock Converse needs the tools declared when the conversation holds tool calls");
            }
            return;
        }
        JsonObjectBuilder config = JSON.createObjectBuilder().add("tools", specs);
        if (toolChoice != null) {
            config.add("toolChoice", toolChoice);
        }
        out.add("toolConfig", config);
    }

    private static JsonObject toolSpec(JsonValue value, String at) {
        if (!(value instanceof JsonObject tool) || !"function".equals(optString(tool, "type"))
                || !(tool.get("function") instanceof JsonObject function)) {
            throw new UntranslatableRequestException(at, "only function tools are translated");
        }
        String name = optString(function, "name");
        if (name == null) {
            throw new UntranslatableRequestException(at + ".function.name", "must be a string");
        }
        JsonObjectBuilder spec = JSON.createObjectBuilder().add("name", name);
        String description = optString(function, "description");
        if (description != null && !description.isEmpty()) {
            spec.add("description", description);
        }
        JsonObject schema;
        if (function.get("parameters") instanceof JsonObject parameters) {
            schema = parameters;
        } else if (present(function, "parameters")) {
            throw new UntranslatableRequestException(at + ".function.parameters", "must be a JSON Schema object");
        } else {
            schema = JSON.createObjectBuilder().add("type", "object")
                    .add("properties", JsonValue.EMPTY_JSON_OBJECT).build();
        }
        spec.add("inputSchema", JSON.createObjectBuilder().add("json", schema));
        return JSON.createObjectBuilder().add("toolSpec", spec).build();
    }

    // ---- JSON helpers ----

    private static boolean present(JsonObject object, String field) {
        JsonValue value = object.get(field);
        return value != null && value != JsonValue.NULL;
    }

    private static String optString(JsonObject object, String field) {
        return object.get(field) instanceof JsonString s ? s.getString() : null;
    }

    private static JsonNumber number(JsonObject object, String field) {
        if (object.get(field) instanceof JsonNumber n) {
            return n;
        }
        throw new UntranslatableRequestException(field, "must be a number");
    }
}
