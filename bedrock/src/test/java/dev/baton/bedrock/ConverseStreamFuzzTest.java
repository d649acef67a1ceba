package dev.baton.bedrock;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.wire.RawJsonObject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A ConverseStream of any events, framed by AWS's own encoder, cut into buffers of any size, through what the adapter
 * runs on it ({@link EventStreamFraming}, each payload read as the adapter reads it, {@link ConverseStreamTranslator}),
 * and every payload through {@link ConverseResponses#toOpenAi}. The only exception is the {@link ProviderException} of
 * an exception frame; every chunk prints as JSON that reads back as itself; nothing follows {@code metadata}; one
 * finish reason at most. An input is lines: the first byte says whether usage was asked for and how the body is cut;
 * each line is {@code <type> <payload>}, a type starting with {@code !} an exception frame.
 */
class ConverseStreamFuzzTest {

    private static final Set<String> FINISH_REASONS = Set.of("stop", "length", "tool_calls", "content_filter");
    private static final List<String> TYPES = List.of("messageStart", "contentBlockStart", "contentBlockDelta",
            "contentBlockStop", "messageStop", "metadata");

    @FuzzTest
    void translatesAnyStream(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean includeUsage = (input[0] & 1) == 1;
        int cut = input[0] & 0xff;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (String line : new String(input, 1, input.length - 1, StandardCharsets.UTF_8).split("\n")) {
            int space = line.indexOf(' ');
            String type = space < 0 ? line : line.substring(0, space);
            String payload = space < 0 ? "" : line.substring(space + 1);
            if (type.length() == 1 && Character.isDigit(type.charAt(0))) {
                type = TYPES.get((type.charAt(0) - '0') % TYPES.size()); // short names help the fuzzer
            }
            if (type.isEmpty() || type.equals("!") || type.length() > 100) {
                continue;
            }
            body.writeBytes(frame(type, payload));
        }
        byte[] bytes = body.toByteArray();
        List<Event> events = new ArrayList<>();
        EventStreamFraming framing = new EventStreamFraming(1 << 20);
        for (int i = 0, n = 0; i < bytes.length; n++) {
            int size = Math.min(bytes.length - i, 1 + (cut * (n + 1)) % 97);
            framing.feed(ByteBuffer.wrap(bytes, i, size).slice(), events::add);
            i += size;
        }

        ConverseStreamTranslator translator = new ConverseStreamTranslator(includeUsage, "chatcmpl-fuzz", "m", 1L);
        int finishReasons = 0;
        for (Event event : events) {
            JsonObject data;
            try {
                data = RawJsonObject.parse(event.data());
            } catch (JsonException | ClassCastException | IllegalStateException e) {
                if (!event.event().startsWith(EventStreamFraming.EXCEPTION)) {
                    continue; // as the adapter: a malformed event is skipped
                }
                data = JsonValue.EMPTY_JSON_OBJECT;
            }
            check(ConverseResponses.toOpenAi(data, "chatcmpl-fuzz", "m", 1L));
            boolean doneBefore = translator.done();
            List<JsonObject> chunks;
            try {
                chunks = translator.onEvent(event.event(), data);
            } catch (ProviderException e) {
                assertTrue(event.event().startsWith(EventStreamFraming.EXCEPTION), "only an exception frame throws");
                assertNotNull(e.failure().kind());
                return; // the adapter ends the stream with it
            }
            if (doneBefore) {
                assertEquals(List.of(), chunks, "a chunk after metadata");
            }
            for (JsonObject chunk : chunks) {
                check(chunk);
                assertEquals("chat.completion.chunk", chunk.getString("object"));
                if (!chunk.getJsonArray("choices").isEmpty()) {
                    JsonValue finish = chunk.getJsonArray("choices").getJsonObject(0).get("finish_reason");
                    if (finish != JsonValue.NULL) {
                        finishReasons++;
                        assertTrue(FINISH_REASONS.contains(chunk.getJsonArray("choices").getJsonObject(0)
                                .getString("finish_reason")));
                    }
                }
            }
        }
        assertTrue(finishReasons <= 1, "one finish reason at most");
    }

    private static byte[] frame(String type, String payload) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        boolean exception = type.startsWith("!");
        headers.put(exception ? ":exception-type" : ":event-type",
                HeaderValue.fromString(exception ? type.substring(1) : type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString(exception ? "exception" : "event"));
        ByteBuffer encoded = new Message(headers, payload.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    private static void check(JsonObject object) {
        assertEquals(object, RawJsonObject.parse(object.toString()));
    }
}
