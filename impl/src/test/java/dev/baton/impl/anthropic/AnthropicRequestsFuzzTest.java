package dev.baton.impl.anthropic;

import com.code_intelligence.jazzer.junit.DictionaryFile;
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
 * A caller's chat request, any JSON object the endpoint lets through, translated for Anthropic
 * ({@link AnthropicRequests#toAnthropic}): the only exception is the documented
 * {@link UntranslatableRequestException}, and what it builds prints as JSON that reads back as itself. The first byte
 * of an input says whether the request streams; the rest is the body.
 */
class AnthropicRequestsFuzzTest {

    /** As the endpoint reads a body (StrictJson): a member named twice is refused. */
    private static final JsonReaderFactory READERS = JsonProvider.provider()
            .createReaderFactory(Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE));

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/impl/anthropic/chat-request.dict")
    void translatesAnyRequestOrNamesTheField(byte[] input) {
        if (input.length == 0) {
            return;
        }
        JsonObject body;
        try (JsonReader reader = READERS.createReader(new StringReader(
                new String(input, 1, input.length - 1, StandardCharsets.UTF_8)))) {
            body = reader.readObject();
        } catch (RuntimeException refused) {
            return; // the endpoint answers 400 before any adapter sees it
        }
        JsonObject translated;
        try {
            translated = AnthropicRequests.toAnthropic(body, "claude-sonnet-4-5", (input[0] & 1) == 1);
        } catch (UntranslatableRequestException e) {
            assertNotNull(e.field());
            return;
        }
        assertEquals(translated, RawJsonObject.parse(translated.toString()));
    }
}
