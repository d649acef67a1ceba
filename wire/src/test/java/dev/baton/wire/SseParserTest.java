package dev.baton.wire;

import dev.baton.spi.ProviderTransport.Event;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SseParserTest {

    @Test
    void aDataLineFollowedByABlankLineIsOneEvent() {
        List<Event> events = feed(new SseParser(1000), "data: {\"a\":1}", "", "data: [DONE]", "");
        assertEquals(List.of(new Event(null, "{\"a\":1}"), new Event(null, "[DONE]")), events);
    }

    @Test
    void linesFedAsBytesDecodeOnlyTheirValuesWhateverTheReadsSplit() {
        byte[] stream = "event: delta\r\ndata: caf\u00e9 \u2615 \uD83D\uDE00\r\n: ping\r\ndata:x\n\ndata: [DONE]\n\n"
                .getBytes(StandardCharsets.UTF_8);
        for (int split = 1; split < stream.length; split++) { // every place a network read could end
            SseParser parser = new SseParser(1000);
            Lines lines = new Lines(1000);
            List<Event> events = new ArrayList<>();
            Lines.Sink sink = (bytes, start, end) -> {
                Event event = parser.line(bytes, start, end);
                if (event != null) {
                    events.add(event);
                }
            };
            lines.feed(ByteBuffer.wrap(stream, 0, split), sink);
            lines.feed(ByteBuffer.wrap(stream, split, stream.length - split), sink);
            assertEquals(List.of(new Event("delta", "caf\u00e9 \u2615 \uD83D\uDE00\nx"), new Event(null, "[DONE]")), events,
                    "split at " + split);
        }
    }

    @Test
    void theEventIsCompleteOnlyAtTheBlankLine() {
        SseParser parser = new SseParser(1000);
        assertNull(parser.line("data: x"));
        assertEquals(new Event(null, "x"), parser.line(""));
    }

    @Test
    void multipleDataLinesJoinWithNewlines() {
        assertEquals(List.of(new Event(null, "one\ntwo\n")),
                feed(new SseParser(1000), "data: one", "data:two", "data:", ""));
    }

    @Test
    void readsEventNamesAndForgetsThemAfterTheEvent() {
        assertEquals(List.of(new Event("error", "{}"), new Event(null, "x")),
                feed(new SseParser(1000), "event: error", "data: {}", "", "data: x", ""));
    }

    @Test
    void commentsAndUnknownFieldsAreIgnored() {
        assertEquals(List.of(new Event(null, "x")),
                feed(new SseParser(1000), ": keep-alive", "id: 7", "retry: 100", "data: x", ": another", ""));
    }

    @Test
    void aBlankLineWithoutDataDispatchesNothing() {
        assertEquals(List.of(), feed(new SseParser(1000), ": ping", "", "", "event: ping", ""));
    }

    @Test
    void onlyOneLeadingSpaceIsRemoved() {
        assertEquals(List.of(new Event(null, " x")), feed(new SseParser(1000), "data:  x", ""));
    }

    @Test
    void finishReturnsAnEventWithoutATrailingBlankLine() {
        SseParser parser = new SseParser(1000);
        parser.line("event: done");
        parser.line("data: last");
        assertEquals(new Event("done", "last"), parser.finish());
        assertNull(parser.finish());
    }

    @Test
    void anOversizeEventThrows() {
        SseParser parser = new SseParser(10);
        parser.line("data: 12345");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> parser.line("data: 67890"));
        assertTrue(e.getMessage().contains("10"), e.getMessage());
    }

    @Test
    void anEventAtTheLimitIsAccepted() {
        assertEquals(List.of(new Event(null, "1234567890")), feed(new SseParser(10), "data: 1234567890", ""));
    }

    private static List<Event> feed(SseParser parser, String... lines) {
        List<Event> events = new ArrayList<>();
        for (String line : lines) {
            Event e = parser.line(line);
            if (e != null) {
                events.add(e);
            }
        }
        return events;
    }
}
