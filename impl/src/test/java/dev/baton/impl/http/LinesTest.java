package dev.baton.impl.http;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LinesTest {

    private final Lines lines = new Lines(16);
    private final List<String> out = new ArrayList<>();

    private void feed(byte[] bytes) {
        lines.feed(ByteBuffer.wrap(bytes), out::add);
    }

    private void feed(String text) {
        feed(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void splitsAtLfCrlfAndCr() {
        feed("a\nb\r\nc\rd\n\n");

        assertEquals(List.of("a", "b", "c", "d", ""), out);
    }

    @Test
    void buffersWithoutAnArrayOrInsideOneSplitAlike() {
        byte[] text = "xxa\nb\r\nc\rd\n\nyy".getBytes(StandardCharsets.UTF_8);
        ByteBuffer inside = ByteBuffer.wrap(text, 0, text.length - 2).position(2).slice(); // an array offset of 2
        lines.feed(inside, out::add);
        ByteBuffer direct = ByteBuffer.allocateDirect(text.length - 4).put(text, 2, text.length - 4).flip();
        lines.feed(direct, out::add);
        lines.feed(ByteBuffer.wrap(text, 2, text.length - 4).asReadOnlyBuffer(), out::add); // no array

        List<String> once = List.of("a", "b", "c", "d", "");
        assertEquals(Stream.of(once, once, once).flatMap(List::stream).toList(), out);
    }

    @Test
    void aCrlfSplitAcrossBuffersEndsOneLine() {
        feed("a\r");
        feed("\nb\n");

        assertEquals(List.of("a", "b"), out);
    }

    @Test
    void aCharacterSplitAcrossBuffersSurvives() {
        byte[] euro = "€\n".getBytes(StandardCharsets.UTF_8);
        feed(new byte[] {euro[0]});
        feed(new byte[] {euro[1], euro[2], euro[3]});

        assertEquals(List.of("€"), out);
    }

    @Test
    void aLongLineGrowsAcrossBuffersAndTwoCrsAreAnEmptyLine() {
        Lines wide = new Lines(10_000);
        String long1 = "x".repeat(700);
        wide.feed(ByteBuffer.wrap(long1.substring(0, 300).getBytes(StandardCharsets.UTF_8)), out::add);
        wide.feed(ByteBuffer.wrap((long1.substring(300) + "\r\r").getBytes(StandardCharsets.UTF_8)), out::add);
        wide.feed(ByteBuffer.wrap("\nz\n".getBytes(StandardCharsets.UTF_8)), out::add);

        assertEquals(List.of(long1, "", "z"), out);
    }

    @Test
    void theRestWithoutALineEndIsTheLastLine() {
        feed("a\nrest");

        assertEquals("rest", lines.finish());
        assertEquals(List.of("a"), out);
    }

    @Test
    void nothingLeftIsNull() {
        feed("a\n");

        assertNull(lines.finish());
    }

    @Test
    void aLinePastTheLimitFails() {
        assertThrows(IllegalStateException.class, () -> feed("x".repeat(17)));
    }
}
