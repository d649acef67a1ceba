package dev.baton.wire;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParser.Event;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link JsonScan} on whatever a provider may send: it accepts exactly what Parsson accepts as one JSON object and can
 * build as a tree (the one intended difference: JsonScan refuses nesting deeper than {@link JsonScan#MAX_DEPTH},
 * Parsson only past 1000), refuses only with {@link IllegalArgumentException}, and what it reads from an accepted text
 * (members in order, names, strings, numbers, literals) is what Parsson reads. Duplicate names are accepted by both.
 * Seeds: the chunks, answers and errors of the testkit's OpenAI and Anthropic wires.
 */
class JsonScanFuzzTest {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/wire/json.dict")
    void sameVerdictAndValuesAsParsson(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8); // as Lines decodes a stream line
        Reference reference = Reference.of(text);
        JsonScan.Positions members = new JsonScan.Positions();
        JsonScan.Checked checked;
        try {
            checked = JsonScan.check(text, members, "finish_reason");
        } catch (IllegalArgumentException refused) {
            if (refused.getMessage().startsWith("JSON nested deeper")) {
                assertTrue(reference.depth > JsonScan.MAX_DEPTH, "refused as too deep at depth " + reference.depth);
            } else {
                assertFalse(reference.accepted, "JsonScan refused what Parsson accepts: " + refused.getMessage());
            }
            return;
        }
        if (!reference.accepted) {
            fail("JsonScan accepted what Parsson refuses: " + reference.refusal);
        }
        assertEquals(checked.root().members(), members.members(text), "the members the check found are the object's");
        boolean[] finishReasonString = new boolean[1];
        try (JsonParser parser = JSON.createParser(new StringReader(text))) {
            same(checked.root(), parser.next(), parser, finishReasonString);
            assertFalse(parser.hasNext());
        }
        if (finishReasonString[0]) {
            assertTrue(checked.mayNameAString(), "a finish_reason with a string value was not noticed");
        }
    }

    /** Walks {@code span} and Parsson's events for the same value side by side. */
    private static void same(JsonScan.Span span, Event event, JsonParser parser, boolean[] finishReasonString) {
        switch (event) {
            case START_OBJECT -> {
                assertTrue(span.isObject());
                for (JsonScan.Member m : span.members()) {
                    assertEquals(Event.KEY_NAME, parser.next());
                    String name = parser.getString();
                    assertEquals(name, m.name().string());
                    assertTrue(m.nameIs(name), "nameIs(" + name + ")");
                    assertEquals("delta".equals(name), m.nameIs("delta"));
                    Event value = parser.next();
                    if (name.equals("finish_reason") && value == Event.VALUE_STRING) {
                        finishReasonString[0] = true;
                    }
                    same(m.value(), value, parser, finishReasonString);
                }
                assertEquals(Event.END_OBJECT, parser.next());
            }
            case START_ARRAY -> {
                assertTrue(span.isArray());
                for (JsonScan.Span element : span.elements()) {
                    same(element, parser.next(), parser, finishReasonString);
                }
                assertEquals(Event.END_ARRAY, parser.next());
            }
            case VALUE_STRING -> assertEquals(parser.getString(), span.string());
            case VALUE_NUMBER -> assertEquals(parser.getString(), span.json()); // its text: no number limits apply
            case VALUE_TRUE -> assertEquals("true", span.json());
            case VALUE_FALSE -> assertEquals("false", span.json());
            case VALUE_NULL -> assertTrue(span.isNull());
            default -> fail("unexpected " + event);
        }
    }

    /** Parsson's verdict on {@code text} as one JSON object with nothing after it, and how deep it nests. */
    record Reference(boolean accepted, String refusal, int depth) {

        static Reference of(String text) {
            int depth = 0;
            int max = 0;
            try (JsonParser parser = JSON.createParser(new StringReader(text))) {
                if (!parser.hasNext() || parser.next() != Event.START_OBJECT) {
                    return new Reference(false, "not an object", 1);
                }
                depth = max = 1;
                while (depth > 0) {
                    switch (parser.next()) {
                        case START_OBJECT, START_ARRAY -> max = Math.max(max, ++depth);
                        case END_OBJECT, END_ARRAY -> depth--;
                        case VALUE_NUMBER -> parser.getBigDecimal(); // as a tree reads it, with Parsson's limits
                        default -> {
                        }
                    }
                }
                if (parser.hasNext()) {
                    return new Reference(false, "text after the object", max);
                }
                return new Reference(true, null, max);
            } catch (RuntimeException e) {
                return new Reference(false, e.toString(), max);
            }
        }
    }
}
