package dev.baton.wire;

import dev.baton.spi.ProviderTransport.Event;
import org.junit.jupiter.api.Test;

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
