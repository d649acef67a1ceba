package dev.baton.impl.anthropic;

import dev.baton.impl.translate.OpenAiRequestReading;
import dev.baton.impl.translate.OpenAiRequestReading.InlineImage;
import dev.baton.impl.translate.OpenAiRequestReading.Message;
import dev.baton.impl.translate.OpenAiRequestReading.Tool;
import dev.baton.impl.translate.OpenAiRequestReading.ToolCall;
import dev.baton.impl.translate.OpenAiRequestReading.ToolChoice;
import dev.baton.impl.translate.UntranslatableRequestException;
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

import static dev.baton.impl.translate.OpenAiRequestReading.number;
import static dev.baton.impl.translate.OpenAiRequestReading.present;
import static dev.baton.impl.translate.OpenAiRequestReading.texts;

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
        // Built from scratch: every field not read below (unknown ones too) is dropped; the fields that would change
        // the answer if dropped are refused before anything is built.
        OpenAiRequestReading.refuseWhatCannotBeHonoured(body, "Anthropic", "Anthropic");
        JsonObjectBuilder out = JSON.createObjectBuilder().add("model", model);
        Conversation conversation = conversation(body);
        if (!conversation.system.isEmpty()) {
            out.add("system", String.join("\n", conversation.system));
        }
        out.add("messages", conversation.messages());
        Integer maxTokens = OpenAiRequestReading.maxTokens(body);
        out.add("max_tokens", maxTokens != null ? maxTokens : DEFAULT_MAX_TOKENS);
        stopSequences(body, out);
        JsonNumber temperature = OpenAiRequestReading.temperatureUpToOne(body);
        if (temperature != null) {
            out.add("temperature", temperature);
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

    private static Conversation conversation(JsonObject body) {
        JsonArray messages = OpenAiRequestReading.messages(body);
        Conversation conversation = new Conversation(new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < messages.size(); i++) {
            Message message = OpenAiRequestReading.message(messages, i);
            switch (message.role()) {
                case SYSTEM -> texts(message.content(), message.at() + ".content").stream()
                        .filter(text -> !text.isEmpty()).forEach(conversation.system::add);
                case USER -> conversation.add("user", userBlocks(message));
                case ASSISTANT -> conversation.add("assistant", assistantBlocks(message));
                case TOOL -> conversation.add("user", List.of(toolResult(message)));
            }
        }
        if (conversation.turns.isEmpty()) {
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

    /** Anthropic refuses empty text blocks; an empty text says nothing, so it is left out. */
    private static void addText(List<JsonObject> blocks, String text) {
        if (!text.isEmpty()) {
            blocks.add(JSON.createObjectBuilder().add("type", "text").add("text", text).build());
        }
    }

    private static JsonObject image(String url, String at) {
        JsonObjectBuilder source = JSON.createObjectBuilder();
        InlineImage inline = OpenAiRequestReading.inlineImage(url);
        if (inline != null) {
            source.add("type", "base64").add("media_type", inline.mediaType()).add("data", inline.base64());
        } else if (url.regionMatches(true, 0, "https://", 0, 8)) {
            source.add("type", "url").add("url", url);
        } else {
            throw new UntranslatableRequestException(at, "only https URLs and data:<mime>;base64 URLs are translated");
        }
        return JSON.createObjectBuilder().add("type", "image").add("source", source).build();
    }

    private static List<JsonObject> assistantBlocks(Message message) {
        List<JsonObject> blocks = new ArrayList<>();
        OpenAiRequestReading.assistantTexts(message).forEach(text -> addText(blocks, text));
        for (ToolCall call : OpenAiRequestReading.toolCalls(message)) {
            blocks.add(JSON.createObjectBuilder()
                    .add("type", "tool_use")
                    .add("id", OpenAiRequestReading.toolId(call.id()))
                    .add("name", call.name())
                    .add("input", call.arguments())
                    .build());
        }
        return blocks;
    }

    private static JsonObject toolResult(Message message) {
        String id = OpenAiRequestReading.toolCallId(message);
        JsonObjectBuilder result = JSON.createObjectBuilder().add("type", "tool_result")
                .add("tool_use_id", OpenAiRequestReading.toolId(id));
        List<String> texts = texts(message.content(), message.at() + ".content");
        if (message.content() instanceof JsonArray) {
            List<JsonObject> blocks = new ArrayList<>();
            texts.forEach(text -> addText(blocks, text));
            if (!blocks.isEmpty()) {
                JsonArrayBuilder content = JSON.createArrayBuilder();
                blocks.forEach(content::add);
                result.add("content", content);
            }
        } else {
            String text = String.join("", texts);
            if (!text.isEmpty()) {
                result.add("content", text);
            }
        }
        return result.build();
    }

    // ---- parameters ----

    private static void stopSequences(JsonObject body, JsonObjectBuilder out) {
        List<String> sequences = OpenAiRequestReading.stopSequences(body);
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
        List<Tool> tools = OpenAiRequestReading.tools(body);
        if (tools.isEmpty()) {
            return false;
        }
        JsonArrayBuilder translated = JSON.createArrayBuilder();
        for (Tool tool : tools) {
            JsonObjectBuilder anthropic = JSON.createObjectBuilder().add("name", tool.name());
            if (tool.description() != null) {
                anthropic.add("description", tool.description());
            }
            translated.add(anthropic.add("input_schema", tool.parameters()));
        }
        out.add("tools", translated);
        return true;
    }

    private static void toolChoice(JsonObject body, boolean hasTools, JsonObjectBuilder out) {
        boolean serial = body.get("parallel_tool_calls") == JsonValue.FALSE;
        ToolChoice choice = OpenAiRequestReading.toolChoice(body);
        if (choice == null && (!serial || !hasTools)) {
            return; // no tools: nothing to call in parallel
        }
        ToolChoice.Kind kind = choice == null ? ToolChoice.Kind.AUTO : choice.kind();
        JsonObjectBuilder anthropic = switch (kind) {
            case AUTO -> JSON.createObjectBuilder().add("type", "auto");
            case REQUIRED -> JSON.createObjectBuilder().add("type", "any");
            case NONE -> JSON.createObjectBuilder().add("type", "none");
            case FUNCTION -> JSON.createObjectBuilder().add("type", "tool").add("name", choice.function());
        };
        if (serial && kind != ToolChoice.Kind.NONE) {
            anthropic.add("disable_parallel_tool_use", true); // {type:none} has no such field
        }
        out.add("tool_choice", anthropic);
    }

    private static String string(JsonObject object, String field) {
        if (object.get(field) instanceof JsonString s) {
            return s.getString();
        }
        throw new UntranslatableRequestException(field, "must be a string");
    }
}
