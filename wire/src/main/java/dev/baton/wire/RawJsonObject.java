package dev.baton.wire;

import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A provider's JSON object kept as the text it came in. Relayed unchanged, it is written as that text: no tree is
 * built and nothing is serialised again, which on a stream is most of what a chunk would cost. What Baton itself
 * needs from it is read from the text ({@link #scan()}); a caller that reads it as a {@link JsonObject} gets the tree,
 * built on first use. Immutable and thread-safe.
 */
public final class RawJsonObject extends AbstractMap<String, JsonValue> implements JsonObject {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private final String text;
    private final JsonScan.Span root;
    private final JsonScan.Positions members;
    private volatile JsonObject tree;
    /** What {@link OpenAiShape} read from the choices of a chunk, read once. */
    volatile OpenAiShape.Choices choices;
    /**
     * False only when no {@code finish_reason} member, at any depth, has a string value: every chunk of a stream but
     * the last says {@code "finish_reason":null}, and the check of the text tells it, so the choices need not be read.
     */
    final boolean mayNameAFinishReason;

    private RawJsonObject(String text, JsonScan.Checked checked, JsonScan.Positions members) {
        this.text = text;
        this.root = checked.root();
        this.mayNameAFinishReason = checked.mayNameAString();
        this.members = members;
    }

    /**
     * A provider's JSON object, checked but not built: it prints as {@code text}, so relaying it unchanged costs no
     * second serialisation.
     *
     * @throws JsonException when {@code text} is not exactly one JSON object
     */
    public static RawJsonObject parse(String text) {
        try {
            return of(text);
        } catch (IllegalArgumentException e) {
            throw new JsonException(e.getMessage());
        }
    }

    /**
     * @throws IllegalArgumentException when {@code text} is not exactly one JSON object
     */
    public static RawJsonObject of(String text) {
        JsonScan.Positions members = new JsonScan.Positions();
        return new RawJsonObject(text, JsonScan.check(text, members, "finish_reason"), members);
    }

    /** The object as positions in its text, to read a few members without building it. */
    public JsonScan.Span scan() {
        return root;
    }

    /** The value of member {@code name}, read from the text, or {@code null}; the members were found by the check. */
    public JsonScan.Span member(String name) {
        return members.valueOf(text, name);
    }

    /**
     * The text with the members of {@code set} put in: a member of the same name is replaced where it stands (and any
     * repeat of it dropped), the others are added at the end. The rest is copied as it came.
     */
    public String with(Map<String, JsonValue> set) {
        return with(set, null, Map.of());
    }

    /**
     * As {@link #with(Map)}, and inside the object member {@code inner} the members of {@code innerSet} put in the same
     * way, in one pass over the text. {@code inner} is left as it is when it is not an object, or is in {@code set}.
     * When {@code inner} is named more than once, the last (the one a parsed tree keeps) is the one written, where the
     * first stood.
     */
    public String with(Map<String, JsonValue> set, String inner, Map<String, JsonValue> innerSet) {
        StringBuilder out = new StringBuilder(text.length() + 48 * (set.size() + innerSet.size()));
        splice(out, members.members(text), set, inner, inner == null ? null : members.valueOf(text, inner), innerSet);
        return out.toString();
    }

    /** @param innerValue the value of the last member named {@code inner}, or {@code null} */
    private static void splice(StringBuilder out, List<JsonScan.Member> members, Map<String, JsonValue> set,
                               String inner, JsonScan.Span innerValue, Map<String, JsonValue> innerSet) {
        out.append('{');
        boolean first = true;
        // A handful of names are put in: each member's raw name is compared with them, none is decoded.
        @SuppressWarnings("unchecked")
        Map.Entry<String, JsonValue>[] puts = set.entrySet().toArray(new Map.Entry[0]);
        boolean[] written = new boolean[puts.length];
        boolean innerWritten = false;
        for (JsonScan.Member m : members) {
            int put = indexOf(puts, m);
            if (put < 0 && inner != null && m.nameIs(inner) && innerValue.isObject()) {
                if (!innerWritten) { // a repeat is dropped: a reader keeping the first would miss what is put in
                    innerWritten = true;
                    first = member(out, first, m.name(), null);
                    splice(out, innerValue.members(), innerSet, null, null, Map.of());
                }
            } else if (put < 0) {
                first = member(out, first, m.name(), null);
                append(out, m.value());
            } else if (!written[put]) {
                written[put] = true;
                first = member(out, first, m.name(), puts[put].getValue());
            }
        }
        for (int i = 0; i < puts.length; i++) {
            if (!written[i]) {
                first = member(out, first, JSON.createValue(puts[i].getKey()), puts[i].getValue());
            }
        }
        out.append('}');
    }

    /** The index in {@code puts} of {@code m}'s name, or -1. */
    private static int indexOf(Map.Entry<String, JsonValue>[] puts, JsonScan.Member m) {
        for (int i = 0; i < puts.length; i++) {
            if (m.nameIs(puts[i].getKey())) {
                return i;
            }
        }
        return -1;
    }

    /** Writes {@code "name":value}, or only {@code "name":} when {@code value} is null; returns false (not first). */
    private static boolean member(StringBuilder out, boolean first, Object name, Object value) {
        if (!first) {
            out.append(',');
        }
        append(out, name);
        out.append(':');
        if (value != null) {
            append(out, value);
        }
        return false;
    }

    private static void append(StringBuilder out, Object json) {
        if (json instanceof JsonScan.Span s) {
            out.append(s.text(), s.start(), s.end());
        } else {
            out.append(json);
        }
    }

    private JsonObject tree() {
        JsonObject built = tree;
        if (built == null) {
            try (var reader = JSON.createReader(new StringReader(text))) {
                built = reader.readObject();
            }
            tree = built;
        }
        return built;
    }

    @Override
    public Set<Entry<String, JsonValue>> entrySet() {
        return tree().entrySet();
    }

    @Override
    public JsonValue get(Object key) {
        return tree().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return tree().containsKey(key);
    }

    @Override
    public int size() {
        return tree().size();
    }

    @Override
    public JsonArray getJsonArray(String name) {
        return tree().getJsonArray(name);
    }

    @Override
    public JsonObject getJsonObject(String name) {
        return tree().getJsonObject(name);
    }

    @Override
    public JsonNumber getJsonNumber(String name) {
        return tree().getJsonNumber(name);
    }

    @Override
    public JsonString getJsonString(String name) {
        return tree().getJsonString(name);
    }

    @Override
    public String getString(String name) {
        return tree().getString(name);
    }

    @Override
    public String getString(String name, String defaultValue) {
        return tree().getString(name, defaultValue);
    }

    @Override
    public int getInt(String name) {
        return tree().getInt(name);
    }

    @Override
    public int getInt(String name, int defaultValue) {
        return tree().getInt(name, defaultValue);
    }

    @Override
    public boolean getBoolean(String name) {
        return tree().getBoolean(name);
    }

    @Override
    public boolean getBoolean(String name, boolean defaultValue) {
        return tree().getBoolean(name, defaultValue);
    }

    @Override
    public boolean isNull(String name) {
        return tree().isNull(name);
    }

    @Override
    public ValueType getValueType() {
        return ValueType.OBJECT;
    }

    /** The text it came in: valid JSON for this object, if not always the shortest. */
    @Override
    public String toString() {
        return text;
    }
}
