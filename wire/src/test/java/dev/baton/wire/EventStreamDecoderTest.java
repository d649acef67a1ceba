package dev.baton.wire;

import dev.baton.wire.EventStreamDecoder.EventStreamException;
import dev.baton.wire.EventStreamDecoder.Message;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.eventstream.HeaderValue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link EventStreamDecoder} against frames encoded by AWS's own event stream library. */
class EventStreamDecoderTest {

    private static byte[] encode(Map<String, HeaderValue> headers, String payload) {
        ByteBuffer frame = new software.amazon.awssdk.eventstream.Message(headers,
                payload.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        return bytes;
    }

    private static byte[] event(String type, String json) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        return encode(headers, json);
    }

    private static List<Message> decodeInPieces(byte[] body, int piece, long limit) {
        EventStreamDecoder decoder = new EventStreamDecoder(limit);
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < body.length; i += piece) {
            decoder.feed(ByteBuffer.wrap(body, i, Math.min(piece, body.length - i)).slice(), out::add);
        }
        assertFalse(decoder.inMessage());
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void readsEveryHeaderTypeAndThePayload() {
        UUID uuid = UUID.randomUUID();
        Instant time = Instant.ofEpochMilli(1_764_000_000_123L);
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put("t", HeaderValue.fromBoolean(true));
        headers.put("f", HeaderValue.fromBoolean(false));
        headers.put("byte", HeaderValue.fromByte((byte) -7));
        headers.put("short", HeaderValue.fromShort((short) -300));
        headers.put("int", HeaderValue.fromInteger(123_456_789));
        headers.put("long", HeaderValue.fromLong(-9_000_000_000L));
        headers.put("bytes", HeaderValue.fromByteArray(new byte[] {1, 2, 3}));
        headers.put("string", HeaderValue.fromString("héllo"));
        headers.put("time", HeaderValue.fromTimestamp(time));
        headers.put("uuid", HeaderValue.fromUuid(uuid));

        List<Message> messages = decodeInPieces(encode(headers, "{\"p\":1}"), 1000, 1 << 20);

        assertEquals(1, messages.size());
        Map<String, Object> got = messages.get(0).headers();
        assertEquals(List.of("t", "f", "byte", "short", "int", "long", "bytes", "string", "time", "uuid"),
                List.copyOf(got.keySet()));
        assertEquals(true, got.get("t"));
        assertEquals(false, got.get("f"));
        assertEquals((byte) -7, got.get("byte"));
        assertEquals((short) -300, got.get("short"));
        assertEquals(123_456_789, got.get("int"));
        assertEquals(-9_000_000_000L, got.get("long"));
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) got.get("bytes"));
        assertEquals("héllo", messages.get(0).string("string"));
        assertEquals(time, got.get("time"));
        assertEquals(uuid, got.get("uuid"));
        assertEquals("{\"p\":1}", messages.get(0).text());
    }

    @Test
    void anySplitOfSeveralMessagesReadsTheSame() {
        byte[] body = concat(event("messageStart", "{\"role\":\"assistant\"}"),
                event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}"),
                encode(Map.of(), ""),
                event("messageStop", "{\"stopReason\":\"end_turn\"}"));
        for (int piece = 1; piece <= body.length; piece++) {
            List<Message> messages = decodeInPieces(body, piece, 1 << 20);
            assertEquals(List.of("messageStart", "contentBlockDelta", "messageStop"), messages.stream()
                    .map(m -> m.string(":event-type")).filter(java.util.Objects::nonNull).toList(), "piece " + piece);
            assertEquals(4, messages.size());
            assertEquals("{\"stopReason\":\"end_turn\"}", messages.get(3).text());
        }
    }

    @Test
    void aCutMessageIsHeldNotDelivered() {
        byte[] frame = event("messageStart", "{}");
        EventStreamDecoder decoder = new EventStreamDecoder(1 << 20);
        List<Message> out = new ArrayList<>();
        decoder.feed(ByteBuffer.wrap(frame, 0, frame.length - 1), out::add);
        assertTrue(decoder.inMessage());
        assertTrue(out.isEmpty());
    }

    @Test
    void aCorruptPayloadFailsTheMessageChecksum() {
        byte[] frame = event("contentBlockDelta", "{\"delta\":{\"text\":\"Hi\"}}");
        frame[frame.length - 8] ^= 1;
        EventStreamException e = assertThrows(EventStreamException.class,
                () -> decodeInPieces(frame, 7, 1 << 20));
        assertEquals("an event stream message whose checksum does not match", e.getMessage());
    }

    @Test
    void aCorruptLengthFailsThePreludeChecksum() {
        byte[] frame = event("messageStart", "{}");
        frame[2] ^= 1;
        EventStreamException e = assertThrows(EventStreamException.class, () -> decodeInPieces(frame, 3, 1 << 20));
        assertEquals("an event stream prelude whose checksum does not match", e.getMessage());
    }

    @Test
    void aMessagePastTheLimitFailsBeforeItIsRead() {
        byte[] frame = event("contentBlockDelta", "x".repeat(500));
        EventStreamDecoder decoder = new EventStreamDecoder(200);
        EventStreamException e = assertThrows(EventStreamException.class,
                () -> decoder.feed(ByteBuffer.wrap(frame, 0, 12), m -> { }));
        assertTrue(e.getMessage().startsWith("an event stream message is larger than 200 bytes"), e.getMessage());
        assertTrue(e instanceof IllegalStateException, "the transport's limit failure");
    }

    @Test
    void headersLongerThanTheMessageAreRefused() {
        byte[] prelude = new byte[12];
        ByteBuffer.wrap(prelude).putInt(16).putInt(1);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(prelude, 0, 8);
        ByteBuffer.wrap(prelude, 8, 4).putInt((int) crc.getValue());
        EventStreamException e = assertThrows(EventStreamException.class,
                () -> new EventStreamDecoder(1 << 20).feed(ByteBuffer.wrap(prelude), m -> { }));
        assertEquals("an event stream message of 16 bytes cannot hold 1 bytes of headers", e.getMessage());
    }

    @Test
    void toStringShowsNoPayloadOrHeaderValue() {
        List<Message> messages = decodeInPieces(event("contentBlockDelta", "{\"secret\":\"sk-123\"}"), 64, 1 << 20);
        String text = messages.get(0).toString();
        assertFalse(text.contains("sk-123") || text.contains("contentBlockDelta"), text);
    }
}
