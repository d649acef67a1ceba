package dev.baton.impl.http;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.AbstractMap;
import java.util.Set;

/**
 * A JSON object that keeps the text it was parsed from and prints as that text. A provider's chunk relayed unchanged
 * is then written as it came, not serialised again: on a stream that is most of what a chunk would cost. Reads go to
 * the parsed object. Immutable.
 */
final class ParsedObject extends AbstractMap<String, JsonValue> implements JsonObject {

    private final JsonObject parsed;
    private final String text;

    ParsedObject(JsonObject parsed, String text) {
        this.parsed = parsed;
        this.text = text;
    }

    @Override
    public Set<Entry<String, JsonValue>> entrySet() {
        return parsed.entrySet();
    }

    @Override
    public JsonValue get(Object key) {
        return parsed.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return parsed.containsKey(key);
    }

    @Override
    public int size() {
        return parsed.size();
    }

    @Override
    public JsonArray getJsonArray(String name) {
        return parsed.getJsonArray(name);
    }

    @Override
    public JsonObject getJsonObject(String name) {
        return parsed.getJsonObject(name);
    }

    @Override
    public JsonNumber getJsonNumber(String name) {
        return parsed.getJsonNumber(name);
    }

    @Override
    public JsonString getJsonString(String name) {
        return parsed.getJsonString(name);
    }

    @Override
    public String getString(String name) {
        return parsed.getString(name);
    }

    @Override
    public String getString(String name, String defaultValue) {
        return parsed.getString(name, defaultValue);
    }

    @Override
    public int getInt(String name) {
        return parsed.getInt(name);
    }

    @Override
    public int getInt(String name, int defaultValue) {
        return parsed.getInt(name, defaultValue);
    }

    @Override
    public boolean getBoolean(String name) {
        return parsed.getBoolean(name);
    }

    @Override
    public boolean getBoolean(String name, boolean defaultValue) {
        return parsed.getBoolean(name, defaultValue);
    }

    @Override
    public boolean isNull(String name) {
        return parsed.isNull(name);
    }

    @Override
    public ValueType getValueType() {
        return ValueType.OBJECT;
    }

    /** The text it was parsed from: valid JSON for this object, if not always the shortest. */
    @Override
    public String toString() {
        return text;
    }
}
