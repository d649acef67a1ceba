package dev.baton.wire;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.Cost;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What Baton reads from a provider's answer or chunk kept as text ({@link RawJsonObject}, {@link OpenAiShape}) is what
 * it reads from the same JSON as a tree, as {@link OpenAiShape} promises: finish reason, output, usage, and the answer
 * with Baton's cost spliced in. {@link RawJsonObject#of} refuses only with {@link IllegalArgumentException}; what it
 * accepts, Parsson builds.
 */
class OpenAiShapeFuzzTest {

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final Cost COST = new Cost(new BigDecimal("0.0125"), "USD", "configured");

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/wire/json.dict")
    void textAndTreeAnswerAlike(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        RawJsonObject raw;
        try {
            raw = RawJsonObject.of(text);
        } catch (IllegalArgumentException refused) {
            return; // which texts are refused is JsonScanFuzzTest's
        }
        JsonObject tree;
        try (var reader = JSON.createReader(new StringReader(text))) {
            tree = reader.readObject();
        }
        assertEquals(OpenAiShape.finishReason(tree), OpenAiShape.finishReason(raw), "finish reason");
        assertEquals(OpenAiShape.hasOutput(tree), OpenAiShape.hasOutput(raw), "has output");
        assertEquals(OpenAiShape.usage(tree), OpenAiShape.usage(raw), "usage");
        assertEquals(OpenAiShape.withCost(tree, COST), parse(OpenAiShape.withCost(raw, COST).toString()), "with cost");
        assertEquals(JSON.createObjectBuilder(OpenAiShape.withCost(tree, COST)).add("id", "b-1").build(),
                parse(OpenAiShape.withCost(raw, Map.of("id", JSON.createValue("b-1")), COST)), "with cost and an id");
        assertEquals(JSON.createObjectBuilder(tree).add("model", JsonValue.NULL).build(),
                parse(raw.with(Map.of("model", JsonValue.NULL))), "with a member replaced");
    }

    private static JsonObject parse(String text) {
        try (var reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
