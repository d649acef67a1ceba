package dev.baton.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.wire.EventStreamDecoder.EventStreamException;
import dev.baton.wire.EventStreamDecoder.Message;
import software.amazon.awssdk.eventstream.HeaderValue;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link EventStreamDecoder} as a stream feeds it (buffers of 1 to 97 bytes), against AWS's own decoder reading the
 * same bytes frame by frame. The only refusal is {@link EventStreamException}; every message read is the one AWS
 * reads from the same bytes, and the same whatever the split. The first byte of an input picks how it is cut.
 */
class EventStreamFuzzTest {

    @FuzzTest
    void sameMessagesAsAwsDecoder(byte[] input) {
        if (input.length < 1) {
            return;
        }
        int cut = input[0] & 0xff;
        byte[] body = Arrays.copyOfRange(input, 1, input.length);

        List<Message> inPieces = new ArrayList<>();
        EventStreamException refusal = null;
        EventStreamDecoder decoder = new EventStreamDecoder(1 << 16);
        try {
            int i = 0;
            for (int n = 0; i < body.length; n++) {
                int size = Math.min(body.length - i, 1 + (cut * (n + 1)) % 97);
                decoder.feed(ByteBuffer.wrap(body, i, size).slice(), inPieces::add);
                i += size;
            }
        } catch (EventStreamException e) {
            refusal = e;
        }

        List<Message> whole = new ArrayList<>();
        try {
            new EventStreamDecoder(1 << 16).feed(ByteBuffer.wrap(body), whole::add);
            assertEquals(null, refusal, "refused in pieces, read whole");
        } catch (EventStreamException e) {
            assertEquals(e.getMessage(), refusal == null ? null : refusal.getMessage(), "read in pieces, refused whole");
        }
        assertEquals(whole.size(), inPieces.size());

        int at = 0;
        for (int m = 0; m < inPieces.size(); m++) {
            int total = ByteBuffer.wrap(body, at, 4).getInt();
            software.amazon.awssdk.eventstream.Message aws = software.amazon.awssdk.eventstream.Message.decode(
                    ByteBuffer.wrap(body, at, total).slice());
            at += total;
            assertSame(aws, inPieces.get(m));
            assertSame(aws, whole.get(m));
        }
    }

    private static void assertSame(software.amazon.awssdk.eventstream.Message aws, Message ours) {
        assertArrayEquals(aws.getPayload(), ours.payload());
        assertEquals(aws.getHeaders().keySet(), ours.headers().keySet());
        for (Map.Entry<String, HeaderValue> header : aws.getHeaders().entrySet()) {
            Object value = ours.headers().get(header.getKey());
            HeaderValue expected = header.getValue();
            switch (expected.getType()) {
                case TRUE, FALSE -> assertEquals(expected.getBoolean(), value);
                case BYTE -> assertEquals(expected.getByte(), value);
                case SHORT -> assertEquals(expected.getShort(), value);
                case INTEGER -> assertEquals(expected.getInteger(), value);
                case LONG -> assertEquals(expected.getLong(), value);
                case BYTE_ARRAY -> assertArrayEquals(expected.getByteArray(), (byte[]) value);
                case STRING -> assertEquals(expected.getString(), value);
                case TIMESTAMP -> assertEquals(expected.getTimestamp(), (Instant) value);
                case UUID -> assertEquals(expected.getUuid(), (UUID) value);
                default -> throw new AssertionError("a header type AWS knows and this test does not: "
                        + expected.getType());
            }
        }
    }
}
