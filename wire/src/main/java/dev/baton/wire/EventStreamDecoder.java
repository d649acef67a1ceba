package dev.baton.wire;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * Reads AWS's binary event stream ({@code application/vnd.amazon.eventstream}, Bedrock's ConverseStream body) as bytes
 * arrive in any split. A message is a prelude (total length, headers length, both big-endian 32-bit, and the CRC32 of
 * those 8 bytes), its headers, its payload, and the CRC32 of all that precedes it. Both checksums are verified and the
 * sizes bounded before any memory is taken for a message. Not thread-safe: fed by one I/O thread.
 */
public final class EventStreamDecoder {

    /** Prelude (12 bytes) and message CRC (4): the size of a message with no headers and no payload. */
    static final int OVERHEAD = 16;
    /** AWS's own limits: 16 MiB a message, 128 KiB of headers. */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    static final int MAX_HEADERS_BYTES = 128 * 1024;

    private final int maxMessageBytes;
    private final byte[] prelude = new byte[12];
    private int preludeLength;
    /** The message being read once its prelude was checked, else null. */
    private byte[] message;
    private int messageLength;

    /** @param maxMessageBytes the largest message accepted, bounded again by AWS's 16 MiB */
    public EventStreamDecoder(long maxMessageBytes) {
        this.maxMessageBytes = (int) Math.max(OVERHEAD, Math.min(maxMessageBytes, MAX_MESSAGE_BYTES));
    }

    /**
     * Hands {@code sink} every message {@code data} completes, consuming all of it.
     *
     * @throws EventStreamException on a checksum that does not match, impossible lengths, a malformed header, or a
     *                              message larger than the limit
     */
    public void feed(ByteBuffer data, Consumer<Message> sink) {
        while (data.hasRemaining()) {
            if (message == null) {
                int n = Math.min(data.remaining(), prelude.length - preludeLength);
                data.get(prelude, preludeLength, n);
                preludeLength += n;
                if (preludeLength < prelude.length) {
                    return;
                }
                startMessage();
            }
            int n = Math.min(data.remaining(), message.length - messageLength);
            data.get(message, messageLength, n);
            messageLength += n;
            if (messageLength == message.length) {
                byte[] whole = message;
                message = null;
                preludeLength = 0;
                sink.accept(decode(whole));
            }
        }
    }

    /** Whether bytes of an unfinished message are held: a body ending now was cut inside a message. */
    public boolean inMessage() {
        return preludeLength > 0;
    }

    private void startMessage() {
        long total = uint32(prelude, 0);
        long headers = uint32(prelude, 4);
        if (crc(prelude, 0, 8) != uint32(prelude, 8)) {
            throw new EventStreamException("an event stream prelude whose checksum does not match");
        }
        if (total < OVERHEAD || headers > total - OVERHEAD) {
            throw new EventStreamException("an event stream message of " + total + " bytes cannot hold "
                    + headers + " bytes of headers");
        }
        if (total > maxMessageBytes) {
            throw new EventStreamException("an event stream message is larger than " + maxMessageBytes + " bytes ("
                    + total + ")");
        }
        if (headers > MAX_HEADERS_BYTES) {
            throw new EventStreamException("an event stream message has more than " + MAX_HEADERS_BYTES
                    + " bytes of headers (" + headers + ")");
        }
        message = Arrays.copyOf(prelude, (int) total);
        messageLength = prelude.length;
    }

    private static Message decode(byte[] bytes) {
        int end = bytes.length - 4;
        if (crc(bytes, 0, end) != uint32(bytes, end)) {
            throw new EventStreamException("an event stream message whose checksum does not match");
        }
        int headersEnd = 12 + (int) uint32(bytes, 4);
        ByteBuffer in = ByteBuffer.wrap(bytes, 12, headersEnd - 12);
        Map<String, Object> headers = new LinkedHashMap<>();
        try {
            while (in.hasRemaining()) {
                String name = utf8(in, in.get() & 0xff);
                if (name.isEmpty()) {
                    throw new EventStreamException("an event stream header without a name");
                }
                headers.put(name, value(in));
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw new EventStreamException("an event stream header runs past the headers' length");
        }
        return new Message(Collections.unmodifiableMap(headers), Arrays.copyOfRange(bytes, headersEnd, end));
    }

    /** A header value of one of the 10 types, as Boolean, Byte, Short, Integer, Long, byte[], String, Instant, UUID. */
    private static Object value(ByteBuffer in) {
        int type = in.get();
        return switch (type) {
            case 0 -> Boolean.TRUE;
            case 1 -> Boolean.FALSE;
            case 2 -> in.get();
            case 3 -> in.getShort();
            case 4 -> in.getInt();
            case 5 -> in.getLong();
            case 6 -> {
                byte[] value = new byte[in.getShort() & 0xffff];
                in.get(value);
                yield value;
            }
            case 7 -> utf8(in, in.getShort() & 0xffff);
            case 8 -> Instant.ofEpochMilli(in.getLong());
            case 9 -> new UUID(in.getLong(), in.getLong());
            default -> throw new EventStreamException("an event stream header of unknown type " + type);
        };
    }

    private static String utf8(ByteBuffer in, int length) {
        ByteBuffer bytes = in.slice().limit(length); // underflows below when the length runs past the headers
        in.position(in.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new EventStreamException("an event stream header name or string that is not UTF-8");
        }
    }

    private static long uint32(byte[] bytes, int at) {
        return ((bytes[at] & 0xffL) << 24) | ((bytes[at + 1] & 0xffL) << 16) | ((bytes[at + 2] & 0xffL) << 8)
                | (bytes[at + 3] & 0xffL);
    }

    private static long crc(byte[] bytes, int from, int to) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, to - from);
        return crc.getValue();
    }

    /** One message: its headers by name, and its payload. */
    public record Message(Map<String, Object> headers, byte[] payload) {

        /** A header's value if it is a string, else null. */
        public String string(String name) {
            return headers.get(name) instanceof String s ? s : null;
        }

        /** The payload as UTF-8 text. */
        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** Header names and the payload's size: a payload may quote a prompt, and a header value a credential. */
        @Override
        public String toString() {
            return "Message" + headers.keySet() + "[" + payload.length + " bytes]";
        }
    }

    /** Bytes that are not a valid event stream, or a message past the limit. */
    public static final class EventStreamException extends IllegalStateException {

        public EventStreamException(String message) {
            super(message);
        }
    }
}
