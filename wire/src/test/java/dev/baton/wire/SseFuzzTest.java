package dev.baton.wire;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.spi.ProviderTransport.Event;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Lines} and {@link SseParser} as a stream feeds them (as {@code HttpExchange} does: bytes in buffers of any
 * size, lines to the parser, the rest at the end), against a plain reading of the text/event-stream grammar over the
 * whole body at once. The only refusal is the documented {@link IllegalStateException} of a line or an event past the
 * limit, and only then. The first byte of an input picks the limit, the second how the body is cut into buffers.
 */
class SseFuzzTest {

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/wire/sse.dict")
    void sameLinesAndEventsAsTheGrammar(byte[] input) {
        if (input.length < 2) {
            return;
        }
        long limit = input[0] == 0 ? Long.MAX_VALUE : (input[0] & 0xff) * 4L;
        int cut = input[1] & 0xff;
        byte[] body = Arrays.copyOfRange(input, 2, input.length);

        List<byte[]> rawLines = lines(body);
        List<String> expectedLines = rawLines.stream().map(l -> new String(l, StandardCharsets.UTF_8)).toList();
        List<Event> expectedEvents = new ArrayList<>();
        boolean overLimit = rawLines.stream().anyMatch(l -> l.length > limit) // bytes, before decoding
                | events(expectedLines, limit, expectedEvents);

        Lines lines = new Lines(limit);
        SseParser parser = new SseParser(limit);
        List<String> gotLines = new ArrayList<>();
        List<Event> gotEvents = new ArrayList<>();
        Lines.Sink sink = (bytes, start, end) -> { // the parser reads the line's bytes, as HttpExchange has it
            gotLines.add(new String(bytes, start, end - start, StandardCharsets.UTF_8));
            add(gotEvents, parser.line(bytes, start, end));
        };
        Runnable feedAll = () -> {
            int i = 0;
            for (int n = 0; i < body.length; n++) {
                int size = Math.min(body.length - i, 1 + (cut * (n + 1)) % 97); // 1 to 97 bytes, varying
                lines.feed(ByteBuffer.wrap(body, i, size).slice(), sink);
                i += size;
            }
            lines.finish(sink);
            add(gotEvents, parser.finish());
        };
        if (overLimit) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, feedAll::run);
            assertTrue(refused.getMessage().matches("a stream (line is longer than|event is larger than) .*"),
                    refused.getMessage());
            return;
        }
        feedAll.run();
        assertEquals(expectedLines, gotLines);
        assertEquals(expectedEvents, gotEvents);
    }

    private static void add(List<Event> events, Event event) {
        if (event != null) {
            events.add(event);
        }
    }

    /** The body's lines, ended by CRLF, LF or CR; an unended last line counts when not empty. */
    static List<byte[]> lines(byte[] body) {
        List<byte[]> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int i = 0; i < body.length; i++) {
            byte b = body[i];
            if (b == '\r' || b == '\n') {
                lines.add(line.toByteArray());
                line.reset();
                if (b == '\r' && i + 1 < body.length && body[i + 1] == '\n') {
                    i++;
                }
            } else {
                line.write(b);
            }
        }
        if (line.size() > 0) {
            lines.add(line.toByteArray());
        }
        return lines;
    }

    /**
     * The events of {@code lines} (a blank line dispatches what data lines gathered, a last event without one is
     * dispatched at the end, as {@link SseParser#finish()} documents); true when an event's data grows past
     * {@code limit} characters.
     */
    static boolean events(List<String> lines, long limit, List<Event> events) {
        String type = null;
        List<String> data = new ArrayList<>();
        List<String> all = new ArrayList<>(lines);
        all.add("");
        for (String line : all) {
            if (line.isEmpty()) {
                if (!data.isEmpty()) {
                    events.add(new Event(type, String.join("\n", data)));
                }
                type = null;
                data.clear();
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (field.equals("data")) {
                data.add(value);
                if (String.join("\n", data).length() > limit) {
                    return true;
                }
            } else if (field.equals("event")) {
                type = value;
            }
        }
        return false;
    }
}
