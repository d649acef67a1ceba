package dev.baton.impl.http;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ParsedObjectTest {

    private static final String CHUNK = "{\"id\": \"c1\", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"h\\u00e9\"}}],"
            + " \"usage\": null}";

    @Test
    void printsAsTheTextItWasParsedFromAndReadsAsTheParsedObject() {
        JsonObject parsed = HttpExchange.parse(CHUNK);
        JsonObject plain = Json.createReader(new StringReader(CHUNK)).readObject();

        assertEquals(CHUNK, parsed.toString());
        assertEquals(plain, parsed);
        assertEquals(plain.hashCode(), parsed.hashCode());
        assertEquals("hé", parsed.getJsonArray("choices").getJsonObject(0).getJsonObject("delta").getString("content"));
        assertEquals("c1", parsed.getString("id"));
        assertEquals(true, parsed.isNull("usage"));
        assertNull(parsed.get("model"));
    }

    @Test
    void aCopyWithChangesIsSerialisedAfresh() {
        JsonObject changed = Json.createObjectBuilder(HttpExchange.parse(CHUNK)).add("model", "m").build();

        assertEquals("m", Json.createReader(new StringReader(changed.toString())).readObject().getString("model"));
    }

    @Test
    void isImmutable() {
        JsonObject parsed = HttpExchange.parse(CHUNK);

        assertThrows(UnsupportedOperationException.class, () -> parsed.put("id", Json.createValue("x")));
        assertThrows(UnsupportedOperationException.class, () -> parsed.entrySet().clear());
    }
}
