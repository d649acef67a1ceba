package dev.baton.wire;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LinesTest {

    private final Lines lines = new Lines(16);
    private final List<String> out = new ArrayList<>();

    /** Each line decoded whole, as a reader of the bytes would. */
    private static Lines.Sink decoded(List<String> out) {
        return (bytes, start, end) -> out.add(new String(bytes, start, end - start, StandardCharsets.UTF_8));
    }

    private void feed(byte[] bytes) {
        lines.feed(ByteBuffer.wrap(bytes), decoded(out));
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
        lines.feed(inside, decoded(out));
        ByteBuffer direct = ByteBuffer.allocateDirect(text.length - 4).put(text, 2, text.length - 4).flip();
        lines.feed(direct, decoded(out));
        lines.feed(ByteBuffer.wrap(text, 2, text.length - 4).asReadOnlyBuffer(), decoded(out)); // no array

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
        wide.feed(ByteBuffer.wrap(long1.substring(0, 300).getBytes(StandardCharsets.UTF_8)), decoded(out));
        wide.feed(ByteBuffer.wrap((long1.substring(300) + "\r\r").getBytes(StandardCharsets.UTF_8)), decoded(out));
        wide.feed(ByteBuffer.wrap("\nz\n".getBytes(StandardCharsets.UTF_8)), decoded(out));

        assertEquals(List.of(long1, "", "z"), out);
    }

    @Test
    void theRestWithoutALineEndIsTheLastLine() {
        feed("a\nrest");

        List<String> rest = new ArrayList<>();
        lines.finish(decoded(rest));
        assertEquals(List.of("rest"), rest);
        assertEquals(List.of("a"), out);
    }

    @Test
    void theRestIsHandedOnAsBytesToo() {
        feed("a\nr\u00e9st");
        List<String> rest = new ArrayList<>();

        lines.finish(decoded(rest));

        assertEquals(List.of("r\u00e9st"), rest);
    }

    @Test
    void nothingLeftIsNull() {
        feed("a\n");
        List<String> rest = new ArrayList<>();

        lines.finish((bytes, start, end) -> rest.add("called"));
        assertEquals(List.of(), rest);
    }

    @Test
    void aLinePastTheLimitFails() {
        assertThrows(IllegalStateException.class, () -> feed("x".repeat(17)));
        byte[] endedInOneRead = ("x".repeat(17) + "\n").getBytes(StandardCharsets.UTF_8);
        assertThrows(IllegalStateException.class,
                () -> new Lines(16).feed(ByteBuffer.wrap(endedInOneRead), decoded(out)));
    }

    @Test
    void findsEveryLineEndWhereverItIsAmongBytesThatLookLikeIt() {
        // 0x8A and 0x8D differ from LF and CR in the high bit only, as bytes of a UTF-8 character can
        byte[] others = {'x', (byte) 0x8A, (byte) 0x8D, 0x0B, 0x0C, 0x09, 0x00, (byte) 0xFF};
        for (byte end : new byte[] {'\n', '\r'}) {
            for (int at = 0; at < 40; at++) {
                byte[] bytes = new byte[40];
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = others[i % others.length];
                }
                bytes[at] = end;
                for (int from = 0; from < bytes.length; from++) {
                    assertEquals(from <= at ? at : bytes.length, Lines.lineEnd(bytes, from, bytes.length),
                            "end " + end + " at " + at + " from " + from);
                }
                assertEquals(at < 20 ? at : 20, Lines.lineEnd(bytes, 0, 20), "not past the end given");
            }
        }
    }

    @Test
    void manyLinesInOneReadLongerThanTheArrayAllArrive() {
        StringBuilder text = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String line = "data: " + "y".repeat(i % 37) + i;
            expected.add(line);
            text.append(line).append(i % 3 == 0 ? "\r\n" : i % 3 == 1 ? "\n" : "\r");
        }
        Lines wide = new Lines(100);
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        wide.feed(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip(), decoded(out));

        assertEquals(expected, out);
    }
}
