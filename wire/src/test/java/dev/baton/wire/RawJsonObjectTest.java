package dev.baton.wire;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RawJsonObjectTest {

    private static final String CHUNK = "{\"id\": \"c1\", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"h\\u00e9\"}}],"
            + " \"usage\": null}";

    @Test
    void putsMembersIntoANestedObjectInTheSamePass() {
        Map<String, JsonValue> cost = Map.of("cost", JsonValue.NULL);
        Map<String, JsonValue> top = Map.of("model", Json.createValue("m"));
        assertEquals("{\"model\":\"m\",\"usage\":{\"a\":1,\"cost\":null},\"b\":[]}",
                RawJsonObject.of("{\"model\":\"x\",\"usage\":{\"a\":1, \"cost\": 7},\"b\":[]}").with(top, "usage", cost));
        assertEquals("{\"usage\":{\"cost\":null}}", RawJsonObject.of("{\"usage\":{}}").with(Map.of(), "usage", cost));
        assertEquals("{\"usage\":5}", RawJsonObject.of("{\"usage\":5}").with(Map.of(), "usage", cost),
                "not an object: left as it is");
        assertEquals("{\"usage\":null}", RawJsonObject.of("{\"usage\":{\"a\":1}}")
                .with(Map.of("usage", JsonValue.NULL), "usage", cost), "replaced at the top: the top wins");
    }

    @Test
    void putsMembersIntoTheLastOfARepeatedNestedObjectAsATreeKeepsIt() {
        // Found by OpenAiShapeFuzzTest: the cost went into the first usage, and a reader keeping the last saw none.
        Map<String, JsonValue> cost = Map.of("cost", JsonValue.NULL);
        assertEquals("{\"usage\":{\"b\":2,\"cost\":null},\"x\":0}",
                RawJsonObject.of("{\"usage\":{\"a\":1},\"x\":0,\"usage\":{\"b\":2}}").with(Map.of(), "usage", cost));
        assertEquals("{\"usage\":{\"a\":1},\"usage\":null}",
                RawJsonObject.of("{\"usage\":{\"a\":1},\"usage\":null}").with(Map.of(), "usage", cost),
                "the last is no object: left as they are");
    }

    @Test
    void printsAsTheTextItWasParsedFromAndReadsAsTheParsedObject() {
        JsonObject parsed = RawJsonObject.parse(CHUNK);
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
        JsonObject changed = Json.createObjectBuilder(RawJsonObject.parse(CHUNK)).add("model", "m").build();

        assertEquals("m", Json.createReader(new StringReader(changed.toString())).readObject().getString("model"));
    }

    @Test
    void withPutsMembersInPlaceOrAtTheEndAndCopiesTheRest() {
        RawJsonObject raw = RawJsonObject.parse("{ \"model\": \"gpt\", \"a\": [1, 2], \"model\": \"again\", \"b\": {} }");

        String text = raw.with(Map.of("model", Json.createValue("served")));
        assertEquals("{\"model\":\"served\",\"a\":[1, 2],\"b\":{}}", text);
        var added = new LinkedHashMap<String, JsonValue>();
        added.put("provider", Json.createValue("openai"));
        added.put("route", Json.createValue(0));
        added.put("route_name", JsonValue.NULL);
        assertEquals("{\"model\":\"gpt\",\"a\":[1, 2],\"model\":\"again\",\"b\":{},\"provider\":\"openai\","
                + "\"route\":0,\"route_name\":null}", raw.with(added));
        assertEquals("{\"k\":\"v\"}", RawJsonObject.parse("{}").with(Map.of("k", Json.createValue("v"))));
    }

    @Test
    void isImmutable() {
        JsonObject parsed = RawJsonObject.parse(CHUNK);

        assertThrows(UnsupportedOperationException.class, () -> parsed.put("id", Json.createValue("x")));
        assertThrows(UnsupportedOperationException.class, () -> parsed.entrySet().clear());
    }
}
