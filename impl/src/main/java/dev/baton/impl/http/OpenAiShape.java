package dev.baton.impl.http;

import dev.baton.ChatChunk;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;

/**
 * What Baton reads from an OpenAI-shaped answer or chunk: the finish reason, whether a chunk carries output, the
 * usage. From the text when it is a provider's own ({@link RawJsonObject}, relayed as it came, never built), from
 * the tree otherwise (a translated one). Both ways answer alike ({@code OpenAiShapeTest}).
 */
public final class OpenAiShape {

    private static final JsonProvider JSON = JsonProvider.provider();

    private OpenAiShape() {
    }

    /** The first choice's {@code finish_reason} that is a string, or {@code null}; as {@link ChatChunk#finishReason}. */
    public static String finishReason(JsonObject chunk) {
        if (!(chunk instanceof RawJsonObject raw)) {
            return new ChatChunk(chunk, null, null).finishReason();
        }
        return choices(raw).finishReason();
    }

    /** Whether a chunk carries a content, refusal, reasoning or tool-call delta; as {@link ChatChunk#hasOutput}. */
    public static boolean hasOutput(JsonObject chunk) {
        if (!(chunk instanceof RawJsonObject raw)) {
            return new ChatChunk(chunk, null, null).hasOutput();
        }
        return choices(raw).hasOutput();
    }

    /** What the choices of a provider's chunk say, read in one walk over them: the adapter and the engine both ask. */
    record Choices(String finishReason, boolean hasOutput) {
    }

    private static Choices choices(RawJsonObject raw) {
        Choices read = raw.choices;
        if (read == null) {
            read = readChoices(raw.member("choices"));
            raw.choices = read;
        }
        return read;
    }

    private static Choices readChoices(JsonScan.Span choices) {
        String finishReason = null;
        boolean hasOutput = false;
        if (choices != null) {
            for (JsonScan.Span choice : choices.elements()) {
                JsonScan.Span reason = null;
                JsonScan.Span delta = null;
                for (JsonScan.Member m : choice.members()) { // the last of a repeated name counts, as in a tree
                    if (m.nameIs("finish_reason")) {
                        reason = m.value();
                    } else if (m.nameIs("delta")) {
                        delta = m.value();
                    }
                }
                if (finishReason == null && reason != null && reason.isString()) {
                    finishReason = reason.string();
                }
                hasOutput = hasOutput || delta != null && carriesOutput(delta);
            }
        }
        return new Choices(finishReason, hasOutput);
    }

    private static boolean carriesOutput(JsonScan.Span delta) {
        for (JsonScan.Member m : delta.members()) {
            JsonScan.Span v = m.value();
            if (m.nameIs("tool_calls") ? v.isArray() && !v.elements().isEmpty()
                    : v.isString() && v.end() - v.start() > 2 && (m.nameIs("content") || m.nameIs("refusal")
                    || m.nameIs("reasoning_content") || m.nameIs("reasoning"))) {
                return true;
            }
        }
        return false;
    }

    /** The {@code usage} object, or {@code null} when there is none. */
    public static JsonObject usage(JsonObject answer) {
        if (!(answer instanceof RawJsonObject raw)) {
            return answer.get("usage") instanceof JsonObject usage ? usage : null;
        }
        JsonScan.Span usage = raw.member("usage");
        if (usage == null || !usage.isObject()) {
            return null;
        }
        try (var reader = JSON.createReader(new StringReader(usage.json()))) {
            return reader.readObject();
        }
    }
}
