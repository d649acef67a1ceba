package dev.baton.impl.engine;

import dev.baton.impl.config.ModelProfile;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EligibilityTest {

    private static final ModelProfile ANY = ModelProfile.unknown("gpt-x");
    private static final ModelProfile NO_TOOLS = new ModelProfile("gpt-x", false, 0, Set.of("text", "image"));
    private static final ModelProfile TEXT_ONLY = new ModelProfile("gpt-x", true, 0, Set.of("text"));
    private static final ModelProfile AUDIO = new ModelProfile("gpt-x", true, 0, Set.of("text", "image", "audio"));
    private static final ModelProfile WINDOW_10 = new ModelProfile("gpt-x", true, 10, Set.of("text", "image"));

    private static final String HELLO = "{'messages': [{'role': 'user', 'content': 'hello'}]}";
    private static final String TOOLS = "{'messages': [{'role': 'user', 'content': 'hi'}], 'tools': [{'type': 'function'}]}";
    private static final String NO_TOOLS_ARRAY = "{'messages': [{'role': 'user', 'content': 'hi'}], 'tools': []}";
    private static final String IMAGE = "{'messages': [{'role': 'user', 'content': [{'type': 'text', 'text': 'what is it?'},"
            + " {'type': 'image_url', 'image_url': {'url': 'data:image/png;base64," + "A".repeat(400) + "'}}]}]}";
    private static final String AUDIO_IN = "{'messages': [{'role': 'user', 'content': [{'type': 'input_audio',"
            + " 'input_audio': {'data': 'AAAA', 'format': 'wav'}}]}]}";
    private static final String IMAGE_AND_AUDIO = "{'messages': [{'role': 'user', 'content': [{'type': 'image_url',"
            + " 'image_url': {'url': 'https://example.com/a.png'}}, {'type': 'input_audio', 'input_audio': {'data': 'AAAA',"
            + " 'format': 'wav'}}]}]}";
    /** 40 characters over two messages: 10 tokens, exactly the window. */
    private static final String FORTY = "{'messages': [{'role': 'system', 'content': '" + "s".repeat(20) + "'},"
            + " {'role': 'user', 'content': [{'type': 'text', 'text': '" + "u".repeat(20) + "'}]}]}";
    /** 41 characters: 11 tokens (rounded up), one over. */
    private static final String FORTY_ONE = "{'messages': [{'role': 'system', 'content': '" + "s".repeat(21) + "'},"
            + " {'role': 'user', 'content': [{'type': 'text', 'text': '" + "u".repeat(20) + "'}]}]}";

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(ANY, TOOLS, null),
                Arguments.of(ANY, IMAGE, null),
                Arguments.of(NO_TOOLS, TOOLS, "gpt-x cannot call tools (baton.models.gpt-x.tools=false)"),
                Arguments.of(NO_TOOLS, NO_TOOLS_ARRAY, null),
                Arguments.of(NO_TOOLS, HELLO, null),
                Arguments.of(TEXT_ONLY, IMAGE, "gpt-x cannot read image input (baton.models.gpt-x.modalities=text)"),
                Arguments.of(TEXT_ONLY, HELLO, null),
                Arguments.of(ANY, AUDIO_IN, "gpt-x cannot read audio input (baton.models.gpt-x.modalities=image,text)"),
                Arguments.of(AUDIO, AUDIO_IN, null),
                // two missing: the first in the order audio, image, text is named, whatever the request's order
                Arguments.of(TEXT_ONLY, IMAGE_AND_AUDIO, "gpt-x cannot read audio input (baton.models.gpt-x.modalities=text)"),
                Arguments.of(WINDOW_10, FORTY, null),
                Arguments.of(WINDOW_10, FORTY_ONE, "gpt-x has too small a context window for an estimated 11 prompt tokens"
                        + " (baton.models.gpt-x.context-window=10)"),
                Arguments.of(WINDOW_10, IMAGE, null), // an image's data is not counted as text
                Arguments.of(ANY, FORTY_ONE, null), // no window configured: no limit
                Arguments.of(new ModelProfile("gpt-x", false, 1, Set.of("text")), TOOLS,
                        "gpt-x cannot call tools (baton.models.gpt-x.tools=false)")); // tools are reported first
    }

    @ParameterizedTest
    @MethodSource("cases")
    void reasonToSkip(ModelProfile model, String body, String expected) {
        assertEquals(expected, Eligibility.reasonToSkip(model, json(body)));
    }

    @ParameterizedTest
    @MethodSource("estimates")
    void estimatesCharactersOverFourRoundedUp(String body, long tokens) {
        assertEquals(tokens, Eligibility.Needs.of(json(body)).estimatedTokens());
    }

    @ParameterizedTest
    @MethodSource("modalities")
    void needsTheModalitiesOfItsContents(String body, Set<String> modalities) {
        assertEquals(modalities, Eligibility.Needs.of(json(body)).modalities());
    }

    static Stream<Arguments> modalities() {
        return Stream.of(
                Arguments.of(HELLO, Set.of("text")),
                Arguments.of(IMAGE, Set.of("text", "image")),
                Arguments.of(AUDIO_IN, Set.of("audio")),
                Arguments.of(IMAGE_AND_AUDIO, Set.of("image", "audio")),
                Arguments.of("{'messages': [{'role': 'assistant', 'content': null}]}", Set.of()));
    }

    static Stream<Arguments> estimates() {
        return Stream.of(
                Arguments.of(HELLO, 2L),
                Arguments.of(FORTY, 10L),
                Arguments.of(FORTY_ONE, 11L),
                Arguments.of("{'messages': [{'role': 'assistant', 'content': null}]}", 0L),
                Arguments.of("{'messages': [{'role': 'user', 'content': 'abcd'}]}", 1L));
    }

    private static JsonObject json(String singleQuoted) {
        try (var reader = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            return reader.readObject();
        }
    }
}
