package dev.baton.impl.anthropic;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.wire.Lines;
import dev.baton.wire.OpenAiShape;
import dev.baton.wire.RawJsonObject;
import dev.baton.wire.SseParser;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An Anthropic stream of any bytes through what the adapter runs on it (lines, events, each event's data read as the
 * adapter reads it, {@link AnthropicStreamTranslator}), and every event's data, and the message of a
 * {@code message_start}, through {@link AnthropicResponses#toOpenAi}. The only exception is the documented
 * {@link ProviderException} of an {@code error} event; every chunk is an OpenAI chunk that prints as JSON which reads
 * back as itself; nothing follows {@code message_stop}. The first byte of an input says whether the caller asked for
 * usage; the rest is the body.
 */
class AnthropicStreamFuzzTest {

    private static final long LIMIT = 1 << 20;
    private static final Set<String> FINISH_REASONS = Set.of("stop", "length", "tool_calls", "content_filter");

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/impl/anthropic/anthropic-stream.dict")
    void translatesAnyStream(byte[] input) {
        if (input.length == 0) {
            return;
        }
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator((input[0] & 1) == 1, 1_764_766_800L);
        SseParser parser = new SseParser(LIMIT);
        List<Event> events = new ArrayList<>();
        Lines lines = new Lines(LIMIT);
        Lines.Sink sink = (bytes, start, end) -> add(events, parser.line(bytes, start, end)); // as HttpExchange reads
        lines.feed(ByteBuffer.wrap(input, 1, input.length - 1), sink);
        lines.finish(sink);
        add(events, parser.finish());

        for (Event event : events) {
            JsonObject data;
            try {
                data = RawJsonObject.parse(event.data());
            } catch (JsonException | ClassCastException | IllegalStateException e) {
                continue; // as the adapter: a malformed event is skipped and counted
            }
            String name = event.event() != null ? event.event()
                    : data.get("type") instanceof JsonString s ? s.getString() : null;
            check(AnthropicResponses.toOpenAi(data, 1_764_766_800L));
            if (data.get("message") instanceof JsonObject message) {
                check(AnthropicResponses.toOpenAi(message));
            }
            if (name == null) {
                continue;
            }
            boolean finishedBefore = translator.finished();
            List<JsonObject> chunks;
            try {
                chunks = translator.onEvent(name, data);
            } catch (ProviderException e) {
                assertEquals("error", name, "only an error event throws");
                assertNotNull(e.failure().kind());
                return; // the adapter ends the stream with it
            }
            if (finishedBefore) {
                assertEquals(List.of(), chunks, "a chunk after message_stop");
            }
            for (JsonObject chunk : chunks) {
                assertEquals("chat.completion.chunk", chunk.getString("object"));
                check(chunk);
                String finish = OpenAiShape.finishReason(chunk);
                assertTrue(finish == null || FINISH_REASONS.contains(finish), finish);
            }
        }
    }

    /** Prints as JSON that reads back as the same object (a caller's SDK reads exactly that text). */
    private static void check(JsonObject translated) {
        assertEquals(translated, RawJsonObject.parse(translated.toString()));
    }

    private static void add(List<Event> events, Event event) {
        if (event != null) {
            events.add(event);
        }
    }
}
