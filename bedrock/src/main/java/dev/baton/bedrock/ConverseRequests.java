package dev.baton.bedrock;

import dev.baton.impl.translate.UntranslatableRequestException;
import dev.baton.impl.translate.OpenAiRequestReading;
import dev.baton.impl.translate.OpenAiRequestReading.InlineImage;
import dev.baton.impl.translate.OpenAiRequestReading.Message;
import dev.baton.impl.translate.OpenAiRequestReading.Tool;
import dev.baton.impl.translate.OpenAiRequestReading.ToolCall;
import dev.baton.impl.translate.OpenAiRequestReading.ToolChoice;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.baton.impl.translate.OpenAiRequestReading.number;
import static dev.baton.impl.translate.OpenAiRequestReading.present;
import static dev.baton.impl.translate.OpenAiRequestReading.texts;

/**
 * An OpenAI chat-completions body to a Bedrock Converse body. A pure function: no I/O, no clock, no logging. What
 * cannot be honoured is refused with an {@link UntranslatableRequestException} naming the field, never echoing its
 * content; what would not change the answer (seed, penalties, user) is dropped.
 */
public final class ConverseRequests {

    private static final JsonProvider JSON = JsonProvider.provider();

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
        Conversation conversation = conversation(body);
        out.add("messages", conversation.messages());
        if (!conversation.system.isEmpty()) {
            JsonArrayBuilder system = JSON.createArrayBuilder();
            conversation.system.forEach(text -> system.add(JSON.createObjectBuilder().add("text", text)));
            out.add("system", system);
        }
        JsonObjectBuilder inference = JSON.createObjectBuilder();
        Integer maxTokens = OpenAiRequestReading.maxTokens(body);
        if (maxTokens != null) { // else Converse has the model's own default
            inference.add("maxTokens", maxTokens);
        }
        JsonNumber temperature = OpenAiRequestReading.temperatureUpToOne(body);
        if (temperature != null) {
            inference.add("temperature", temperature);
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
        OpenAiRequestReading.refuseWhatCannotBeHonoured(body, "Bedrock", "Bedrock Converse");
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

    private static Conversation conversation(JsonObject body) {
        JsonArray messages = OpenAiRequestReading.messages(body);
        Conversation conversation = new Conversation();
        for (int i = 0; i < messages.size(); i++) {
            Message message = OpenAiRequestReading.message(messages, i);
            switch (message.role()) {
                case SYSTEM -> texts(message.content(), message.at() + ".content").stream()
                        .filter(text -> !text.isBlank()).forEach(conversation.system::add);
                case USER -> conversation.add("user", userBlocks(message));
                case ASSISTANT -> conversation.add("assistant", assistantBlocks(message, conversation));
                case TOOL -> {
                    conversation.usesTools = true;
                    conversation.add("user", List.of(toolResult(message)));
                }
            }
        }
        if (conversation.roles.isEmpty()) {
            throw OpenAiRequestReading.nothingToSend();
        }
        return conversation;
    }

    private static List<JsonObject> userBlocks(Message message) {
        List<JsonObject> blocks = new ArrayList<>();
        OpenAiRequestReading.userContent(message.content(), message.at() + ".content",
                text -> addText(blocks, text), (url, at) -> blocks.add(image(url, at)));
        return blocks;
    }

    /** Converse refuses blank text blocks; a blank text says nothing, so it is left out. */
    private static void addText(List<JsonObject> blocks, String text) {
        if (!text.isBlank()) {
            blocks.add(JSON.createObjectBuilder().add("text", text).build());
        }
    }

    /** A data: URL's bytes (Converse's JSON carries them base64, as the URL does); Bedrock fetches no URL. */
    private static JsonObject image(String url, String at) {
        InlineImage inline = OpenAiRequestReading.inlineImage(url);
        if (inline == null) {
            throw new UntranslatableRequestException(at,
                    "Bedrock does not fetch image URLs; only data:<mime>;base64 URLs are translated");
        }
        String format = IMAGE_FORMATS.get(inline.mediaType().toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new UntranslatableRequestException(at, "Bedrock reads png, jpeg, gif and webp images only");
        }
        return JSON.createObjectBuilder().add("image", JSON.createObjectBuilder().add("format", format)
                .add("source", JSON.createObjectBuilder().add("bytes", inline.base64().strip()))).build();
    }

    private static List<JsonObject> assistantBlocks(Message message, Conversation conversation) {
        List<JsonObject> blocks = new ArrayList<>();
        OpenAiRequestReading.assistantTexts(message).forEach(text -> addText(blocks, text));
        for (ToolCall call : OpenAiRequestReading.toolCalls(message)) {
            blocks.add(JSON.createObjectBuilder().add("toolUse", JSON.createObjectBuilder()
                    .add("toolUseId", OpenAiRequestReading.toolId(call.id()))
                    .add("name", call.name())
                    .add("input", call.arguments())).build());
            conversation.usesTools = true;
        }
        return blocks;
    }

    private static JsonObject toolResult(Message message) {
        String id = OpenAiRequestReading.toolCallId(message);
        String text = String.join("", texts(message.content(), message.at() + ".content"));
        // Converse needs at least one block; an empty result is said as such.
        JsonArrayBuilder content = JSON.createArrayBuilder()
                .add(JSON.createObjectBuilder().add("text", text.isEmpty() ? "(empty)" : text));
        return JSON.createObjectBuilder().add("toolResult", JSON.createObjectBuilder()
                .add("toolUseId", OpenAiRequestReading.toolId(id))
                .add("content", content)).build();
    }

    // ---- parameters ----

    private static void stopSequences(JsonObject body, JsonObjectBuilder inference) {
        List<String> sequences = OpenAiRequestReading.stopSequences(body);
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
        List<Tool> tools = OpenAiRequestReading.tools(body);
        ToolChoice choice = OpenAiRequestReading.toolChoice(body);
        JsonObjectBuilder toolChoice = null;
        boolean declareTools = !tools.isEmpty();
        if (choice != null) {
            switch (choice.kind()) {
                case AUTO -> toolChoice = JSON.createObjectBuilder().add("auto", JsonValue.EMPTY_JSON_OBJECT);
                case REQUIRED -> toolChoice = JSON.createObjectBuilder().add("any", JsonValue.EMPTY_JSON_OBJECT);
                case NONE -> {
                    if (usesTools && declareTools) {
                        throw new UntranslatableRequestException("tool_choice",
                                "Bedrock Converse has no \"none\" for a conversation that already used tools");
                    }
                    declareTools = false;
                }
                case FUNCTION -> toolChoice = JSON.createObjectBuilder().add("tool", JSON.createObjectBuilder()
                        .add("name", choice.function()));
            }
        }
        if (!declareTools) {
            if (usesTools) {
                throw new UntranslatableRequestException("tools",
                        "Bedrock Converse needs the tools declared when the conversation holds tool calls");
            }
            return;
        }
        JsonArrayBuilder specs = JSON.createArrayBuilder();
        tools.forEach(tool -> specs.add(toolSpec(tool)));
        JsonObjectBuilder config = JSON.createObjectBuilder().add("tools", specs);
        if (toolChoice != null) {
            config.add("toolChoice", toolChoice);
        }
        out.add("toolConfig", config);
    }

    private static JsonObject toolSpec(Tool tool) {
        JsonObjectBuilder spec = JSON.createObjectBuilder().add("name", tool.name());
        if (tool.description() != null && !tool.description().isEmpty()) {
            spec.add("description", tool.description());
        }
        spec.add("inputSchema", JSON.createObjectBuilder().add("json", tool.parameters()));
        return JSON.createObjectBuilder().add("toolSpec", spec).build();
    }
}
