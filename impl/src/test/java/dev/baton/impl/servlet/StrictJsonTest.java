package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StrictJsonTest {

    @ParameterizedTest
    @ValueSource(ints = {65, 1_000, 20_000})
    void refusesDeepNestingBeforeParsing(int depth) {
        String body = "{\"model\":\"demo\",\"messages\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}";
        var e = assertThrows(RequestRejectedException.class, () -> StrictJson.read(bytes(body)));
        assertEquals(400, e.httpStatus());
        assertTrue(e.getMessage().contains("deeper than 64 levels"), e.getMessage());
    }

    @Test
    void acceptsTheLimitAndCountsNoBracketInsideStrings() {
        String brackets = "\"[[[{{{\\\"[[[\"";
        String body = "{\"a\":" + "[".repeat(63) + brackets + "]".repeat(63) + "}";
        assertTrue(StrictJson.read(bytes(body)) instanceof JsonObject);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"model\":\"a\"} {}", "{\"model\":\"a\"}x", "[1]]", "{}\"s\"", "{} \n 1"})
    void refusesTextAfterTheValue(String body) {
        // Found by StrictJsonFuzzTest: Parsson's reader stops after the first value and never reads the rest.
        var e = assertThrows(RequestRejectedException.class, () -> StrictJson.read(bytes(body)));
        assertEquals("The request body has text after its JSON value.", e.getMessage());
    }

    @Test
    void acceptsWhitespaceAfterTheValue() {
        assertTrue(StrictJson.read(bytes(" {\"model\":\"a\"} \r\n\t")) instanceof JsonObject);
    }

    @Test
    void refusesInvalidUtf8() {
        byte[] body = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        var e = assertThrows(RequestRejectedException.class, () -> StrictJson.read(body));
        assertEquals("The request body is not valid UTF-8.", e.getMessage());
    }

    @Test
    void readsUtf8BeyondAsciiAsItsCharacters() {
        JsonObject json = (JsonObject) StrictJson.read(bytes("{\"a\":\"d\u00e9j\u00e0 \u2713 \ud83d\ude00\"}"));
        assertEquals("d\u00e9j\u00e0 \u2713 \ud83d\ude00", json.getString("a"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"n\":1", "", "{\"n\":9}x}", "{\"a\":1,\"b\":}"})
    void refusesWhatIsNotStrictJsonWithA400(String body) {
        String big = body.replace("}x}", "9".repeat(5_000) + "}"); // beyond Parsson's own number limit
        var e = assertThrows(RequestRejectedException.class, () -> StrictJson.read(bytes(big)));
        assertEquals(400, e.httpStatus());
        assertEquals("The request body is not valid JSON.", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"model\":\"a\",\"model\":\"b\"}|model",
            "{\"model\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"x\",\"role\":\"system\"}]}|role",
            "{\"a\":{\"k\":1},\"b\":{\"k\":2},\"tools\":[],\"tools\":[]}|tools"})
    void aMemberNamedTwiceIsRefusedNamingIt(String body, String member) {
        var e = assertThrows(RequestRejectedException.class, () -> StrictJson.read(bytes(body)));
        assertEquals(400, e.httpStatus());
        assertEquals("The request body names the member '" + member + "' twice in one object; each member may appear"
                + " once.", e.getMessage());
        assertEquals(member, e.param());
    }

    @Test
    void aDuplicatedMemberIsRepeatedOnlyInPartAndPrintable() {
        String name = "\\u202e\\u0007" + "x".repeat(10_000);
        var e = assertThrows(RequestRejectedException.class,
                () -> StrictJson.read(bytes("{\"" + name + "\":1,\"" + name + "\":2}")));
        assertTrue(e.getMessage().contains("'??" + "x".repeat(62) + "…'"), e.getMessage());
        assertTrue(e.getMessage().length() < 200, e.getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
