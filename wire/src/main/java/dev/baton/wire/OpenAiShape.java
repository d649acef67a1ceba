package dev.baton.wire;

import dev.baton.ChatChunk;
import dev.baton.Cost;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Baton reads from an OpenAI-shaped answer or chunk: the finish reason, whether a chunk carries output, the
 * usage. From the text when it is a provider's own ({@link RawJsonObject}, relayed as it came, never built), from
 * the tree otherwise (a translated one). Both ways answer alike ({@code OpenAiShapeTest}).
 */
public final class OpenAiShape {

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final String USAGE = "usage";

    private OpenAiShape() {
    }

    /** The first choice's {@code finish_reason} that is a string, or {@code null}; as {@link ChatChunk#finishReason}. */
    public static String finishReason(JsonObject chunk) {
        if (!(chunk instanceof RawJsonObject raw)) {
            return new ChatChunk(chunk, null, null).finishReason();
        }
        if (raw.choices == null && !raw.mayNameAFinishReason) {
            return null;
        }
        return choices(raw).finishReason();
    }

    /**
     * Whether a chunk carries output: a non-empty content, refusal or reasoning delta, or tool-call deltas, in any
     * choice. The first such chunk is the commit point; chunks before it (a role-only chunk) are held back so that a
     * failure right after them can still fail over unseen.
     */
    public static boolean hasOutput(JsonObject chunk) {
        if (!(chunk instanceof RawJsonObject raw)) {
            return treeHasOutput(chunk);
        }
        return choices(raw).hasOutput();
    }

    private static boolean treeHasOutput(JsonObject chunk) {
        if (!(chunk.get("choices") instanceof JsonArray choices)) {
            return false;
        }
        for (JsonValue choice : choices) {
            if (choice instanceof JsonObject c && c.get("delta") instanceof JsonObject delta
                    && (nonEmpty(delta, "content") || nonEmpty(delta, "refusal")
                    || nonEmpty(delta, "reasoning_content") || nonEmpty(delta, "reasoning")
                    || delta.get("tool_calls") instanceof JsonArray calls && !calls.isEmpty())) {
                return true;
            }
        }
        return false;
    }

    private static boolean nonEmpty(JsonObject delta, String field) {
        return delta.get(field) instanceof JsonString s && !s.getString().isEmpty();
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
                JsonScan.Positions members = choice.positions();
                JsonScan.Span reason = members.valueOf(choice.text(), "finish_reason");
                JsonScan.Span delta = members.valueOf(choice.text(), "delta");
                if (finishReason == null && reason != null && reason.isString()) {
                    finishReason = reason.string();
                }
                hasOutput = hasOutput || delta != null && carriesOutput(delta);
            }
        }
        return new Choices(finishReason, hasOutput);
    }

    private static boolean carriesOutput(JsonScan.Span delta) {
        JsonScan.Positions members = delta.positions();
        String text = delta.text();
        JsonScan.Span calls = members.valueOf(text, "tool_calls");
        return calls != null && calls.isArray() && !calls.elements().isEmpty()
                || nonEmpty(members.valueOf(text, "content")) || nonEmpty(members.valueOf(text, "refusal"))
                || nonEmpty(members.valueOf(text, "reasoning_content")) || nonEmpty(members.valueOf(text, "reasoning"));
    }

    private static boolean nonEmpty(JsonScan.Span value) {
        return value != null && value.isString() && value.end() - value.start() > 2;
    }

    /**
     * {@code answer} (a completion, or a stream's usage chunk) with Baton's estimate in its {@code usage}:
     * {@code cost} (a number, or {@code null} for an unpriced model) and, with a cost, {@code price_source} and
     * {@code cost_currency}. A provider's own text is spliced, not rebuilt; without a usage object the answer is
     * returned as it is.
     */
    public static JsonObject withCost(JsonObject answer, Cost cost) {
        if (answer instanceof RawJsonObject raw) {
            return hasUsage(raw) ? RawJsonObject.of(raw.with(Map.of(), USAGE, costMembers(cost))) : answer;
        }
        if (!(answer.get("usage") instanceof JsonObject usage)) {
            return answer;
        }
        var priced = JSON.createObjectBuilder(usage);
        costMembers(cost).forEach(priced::add);
        return JSON.createObjectBuilder(answer).add("usage", priced).build();
    }

    /**
     * The text of a provider's answer with {@code set} put in (as {@link RawJsonObject#with(Map)}) and, when it has a
     * usage object, the cost members in it: one pass over the text, nothing parsed.
     */
    public static String withCost(RawJsonObject answer, Map<String, JsonValue> set, Cost cost) {
        return hasUsage(answer) ? answer.with(set, USAGE, costMembers(cost)) : answer.with(set);
    }

    private static boolean hasUsage(RawJsonObject answer) {
        JsonScan.Span usage = answer.member(USAGE);
        return usage != null && usage.isObject();
    }

    /** As {@code ChatResponse.toJson()} writes them. A provider's own {@code cost} member is replaced. */
    private static Map<String, JsonValue> costMembers(Cost cost) {
        if (cost == null) {
            return Map.of("cost", JsonValue.NULL);
        }
        Map<String, JsonValue> members = new LinkedHashMap<>();
        members.put("cost", JSON.createValue(cost.amount()));
        members.put("price_source", JSON.createValue(cost.priceSource()));
        members.put("cost_currency", JSON.createValue(cost.currency()));
        return members;
    }

    /** Whether a chat request asks for the usage chunk at the end of its stream ({@code stream_options.include_usage}). */
    public static boolean asksForUsage(JsonObject request) {
        return request.get("stream_options") instanceof JsonObject options
                && options.get("include_usage") == JsonValue.TRUE;
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
