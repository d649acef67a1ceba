package dev.baton.impl.anthropic;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: JSON text to objects. */
final class TestJson {

    private TestJson() {
    }

    static JsonObject obj(String text) {
        try (JsonReader reader = jakarta.json.Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** One JSON object per non-blank line. */
    static List<JsonObject> lines(String text) {
        List<JsonObject> objects = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                objects.add(obj(line));
            }
        }
        return objects;
    }

    /** {@code base} with every field of {@code overrides} put over it. */
    static JsonObject merge(JsonObject base, JsonObject overrides) {
        var builder = jakarta.json.Json.createObjectBuilder(base);
        overrides.forEach(builder::add);
        return builder.build();
    }
}
