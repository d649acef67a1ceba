package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonConfig;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
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
        checkDepth(body);
        // A reporting decoder (the default of newDecoder()) turns malformed UTF-8 into an error, not U+FFFD.
        var text = new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8.newDecoder());
        try (JsonReader reader = READERS.createReader(text)) {
            return reader.readValue();
        } catch (RuntimeException e) {
            // Never the parser's message: it quotes the body.
            throw invalid(causedBy(e, CharacterCodingException.class) ? "The request body is not valid UTF-8."
                    : "The request body is not valid JSON.");
        }
    }

    /**
     * Refuses nesting deeper than {@link #MAX_DEPTH} before any parser recurses into it: one pass
     * over the bytes, brackets outside strings counted. Multi-byte UTF-8 never contains an ASCII
     * byte, so bytes are enough.
     */
    static void checkDepth(byte[] body) {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        for (byte b : body) {
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                if (++depth > MAX_DEPTH) {
                    throw invalid("The request body nests JSON deeper than " + MAX_DEPTH + " levels.");
                }
            } else if (b == '}' || b == ']') {
                depth--;
            }
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static RequestRejectedException invalid(String message) {
        return RequestRejectedException.invalidRequest(message, null);
    }
}
