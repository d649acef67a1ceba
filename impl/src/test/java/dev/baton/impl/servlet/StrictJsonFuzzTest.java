package dev.baton.impl.servlet;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The endpoint's reading of a request body ({@link StrictJson#read}) on any bytes: it refuses only with a 400
 * {@link RequestRejectedException}, and it accepts exactly what Parsson reads as one JSON value with nothing after it,
 * less its documented refusals: bytes that are not UTF-8, nesting deeper than {@link StrictJson#MAX_DEPTH}, a member
 * named twice in one object. One intended difference: a number, string or literal followed by more text is read as
 * that value (the callers refuse anything but an object). Seeds: chat requests as the official SDKs send them.
 */
class StrictJsonFuzzTest {

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final String TEXT_AFTER = "text after the value";

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/impl/servlet/request.dict")
    void sameVerdictAsParsson(byte[] body) {
        String refusal = reference(body);
        JsonValue read;
        try {
            read = StrictJson.read(body);
        } catch (RequestRejectedException refused) {
            assertEquals(400, refused.httpStatus());
            if (refusal == null) {
                fail("refused what Parsson accepts: " + refused.getMessage());
            }
            return;
        }
        assertNotNull(read);
        if (refusal == TEXT_AFTER && !(read instanceof JsonStructure)) {
            return; // a number, string or literal with text after it: read, and refused by every caller as no object
        }
        if (refusal != null) {
            fail("accepted what should be refused: " + refusal);
        }
    }

    /** Why the body is to be refused, or {@code null}: Parsson's events over it, the documented limits checked. */
    private static String reference(byte[] body) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return "not UTF-8";
        }
        Deque<Set<String>> names = new ArrayDeque<>(); // per open container; arrays have an unused set
        try (JsonParser parser = JSON.createParser(new StringReader(text))) {
            if (!parser.hasNext()) {
                return "empty";
            }
            do {
                switch (parser.next()) {
                    case START_OBJECT, START_ARRAY -> {
                        names.push(new HashSet<>());
                        if (names.size() > StrictJson.MAX_DEPTH) {
                            return "deeper than " + StrictJson.MAX_DEPTH;
                        }
                    }
                    case END_OBJECT, END_ARRAY -> names.pop();
                    case KEY_NAME -> {
                        if (!names.peek().add(parser.getString())) {
                            return "duplicate member " + parser.getString();
                        }
                    }
                    case VALUE_NUMBER -> parser.getBigDecimal(); // as the tree reads it, with Parsson's limits
                    default -> {
                    }
                }
            } while (!names.isEmpty());
            try {
                return parser.hasNext() ? TEXT_AFTER : null;
            } catch (JsonParsingException e) {
                return TEXT_AFTER; // whatever it is, it comes after a whole value
            }
        } catch (RuntimeException e) {
            return e.toString();
        }
    }
}
