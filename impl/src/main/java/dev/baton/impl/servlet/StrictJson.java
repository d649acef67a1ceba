package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonConfig;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Request bodies as the endpoint accepts them: UTF-8 (strictly), JSON nested at most
 * {@link #MAX_DEPTH} levels, no member named twice. Everything else a JSON-P implementation can
 * throw while reading hostile input, including the plain {@code RuntimeException}s of its own
 * limits (Parsson's nesting and number-length limits), is a 400 too, never an escaped exception.
 */
final class StrictJson {

    /** Far above any chat request (content parts and tool schemas nest a handful of levels). */
    static final int MAX_DEPTH = 64;

    /** Duplicate members are refused: parsers disagree on which one wins, so a body should not depend on it. */
    private static final JsonReaderFactory READERS = JsonProvider.provider()
            .createReaderFactory(Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE));

    private StrictJson() {
    }

    /** @throws RequestRejectedException 400 when the body is not such a JSON text */
    static JsonValue read(byte[] body) {
        String text;
        if (checkDepth(body)) {
            text = new String(body, StandardCharsets.ISO_8859_1); // all ASCII: each byte is its character
        } else {
            try {
                // A reporting decoder (the default of newDecoder()) turns malformed UTF-8 into an error, not U+FFFD.
                text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
            } catch (CharacterCodingException e) {
                throw invalid("The request body is not valid UTF-8.");
            }
        }
        try (JsonReader reader = READERS.createReader(new StringReader(text))) {
            return reader.readValue();
        } catch (RuntimeException e) {
            throw invalid("The request body is not valid JSON."); // never the parser's message: it quotes the body
        }
    }

    /**
     * Refuses nesting deeper than {@link #MAX_DEPTH} before any parser recurses into it: one pass
     * over the bytes, brackets outside strings counted. Multi-byte UTF-8 never contains an ASCII
     * byte, so bytes are enough. The same pass refuses text after the closing bracket of the
     * outermost object or array, which a JSON-P reader stops before and never reads.
     *
     * @return whether every byte is ASCII, so that there is nothing to decode
     */
    static boolean checkDepth(byte[] body) {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        boolean closed = false; // the outermost object or array has ended
        int all = 0; // every byte OR-ed: a byte past ASCII sets the sign
        for (byte b : body) {
            all |= b;
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (closed && b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                throw invalid("The request body has text after its JSON value.");
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                if (++depth > MAX_DEPTH) {
                    throw invalid("The request body nests JSON deeper than " + MAX_DEPTH + " levels.");
                }
            } else if (b == '}' || b == ']') {
                closed = --depth == 0;
            }
        }
        return all >= 0;
    }

    private static RequestRejectedException invalid(String message) {
        return RequestRejectedException.invalidRequest(message, null);
    }
}
