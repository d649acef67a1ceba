package dev.baton.bedrock;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.impl.translate.UntranslatableRequestException;
import dev.baton.wire.RawJsonObject;
import jakarta.json.JsonConfig;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A caller's chat request, any JSON object the endpoint lets through, translated for Converse
 * ({@link ConverseRequests#toConverse}): the only exception is {@link UntranslatableRequestException} naming a field,
 * and what it builds prints as JSON that reads back as itself.
 */
class ConverseRequestsFuzzTest {

    /** As the endpoint reads a body (StrictJson): a member named twice is refused. */
    private static final JsonReaderFactory READERS = JsonProvider.provider()
            .createReaderFactory(Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE));

    @FuzzTest
    void translatesAnyRequestOrNamesTheField(byte[] input) {
        JsonObject body;
        try (JsonReader reader = READERS.createReader(new StringReader(new String(input, StandardCharsets.UTF_8)))) {
            body = reader.readObject();
        } catch (RuntimeException refused) {
            return; // the endpoint answers 400 before any adapter sees it
        }
        JsonObject translated;
        try {
            translated = ConverseRequests.toConverse(body);
        } catch (UntranslatableRequestException e) {
            assertNotNull(e.field());
            return;
        }
        assertEquals(translated, RawJsonObject.parse(translated.toString()));
    }
}
