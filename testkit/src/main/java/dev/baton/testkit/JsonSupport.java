package dev.baton.testkit;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;

/**
 * The one JSON-P provider the simulator uses, looked up once because each lookup scans the class path.
 *
 * <p>Thread-safe.
 */
final class JsonSupport {

    static final JsonProvider JSON = JsonProvider.provider();

    private JsonSupport() {
    }

    /** Parses a JSON object, or returns null when the text is not one. */
    static JsonObject parseObject(String text) {
        try (var reader = JSON.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            return value.getValueType() == JsonValue.ValueType.OBJECT ? value.asJsonObject() : null;
        } catch (JsonException e) {
            return null;
        }
    }
}
