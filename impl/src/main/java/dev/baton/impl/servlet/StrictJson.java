package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonConfig;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Request bodies as the endpoint accepts them: UTF-8 (strictly), JSON nested at most
 * {@link #MAX_DEPTH} levels, no member named twice. Everything else a JSON-P implementation can
 * throw while reading hostile input, including the plain {@code RuntimeException}s of its own
 * limits (Parsson's nesting and number-length limits), is a 400 too, never an escaped exception. A member
 * named twice is a 400 that names it (its first 64 characters, control characters shown as '?').
 */
final class StrictJson {

    /** Far above any chat request (content parts and tool schemas nest a handful of levels). */
    static final int MAX_DEPTH = 64;

    /** Duplicate members are refused: parsers disagree on which one wins, so a body should not depend on it. */
    private static final JsonReaderFactory READERS = JsonProvider.provider()
            .createReaderFactory(Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE));

    private static final JsonParserFactory PARSERS = JsonProvider.provider().createParserFactory(Map.of());
    /** The longest part of a duplicated member's name that the refusal repeats. */
    static final int MAX_ECHOED_NAME = 64;

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
            // Never the parser's message: it quotes the body. A member named twice gets its own message, since
            // "not valid JSON" would send the caller looking for a syntax error that is not there.
            String twice = duplicateMember(text);
            throw invalid(twice == null ? "The request body is not valid JSON."
                    : "The request body names the member '" + Rejections.shortened(twice, MAX_ECHOED_NAME)
                    + "' twice in one object; each member may appear once.", twice == null ? null
                    : Rejections.shortened(twice, MAX_ECHOED_NAME));
        }
    }

    /**
     * The first member named twice in one object, or {@code null} when there is none or the text is not JSON. Read
     * only after the strict reader refused the text (its message is implementation-specific); the depth is already
     * bounded by {@link #checkDepth}.
     */
    static String duplicateMember(String text) {
        Deque<Set<String>> objects = new ArrayDeque<>();
        try (JsonParser parser = PARSERS.createParser(new StringReader(text))) {
            while (parser.hasNext()) {
                switch (parser.next()) {
                    case START_OBJECT -> objects.push(new HashSet<>());
                    case START_ARRAY -> objects.push(Set.of()); // a placeholder: arrays have no member names
                    case END_OBJECT, END_ARRAY -> objects.pop();
                    case KEY_NAME -> {
                        if (!objects.peek().add(parser.getString())) {
                            return parser.getString();
                        }
                    }
                    default -> {
                    }
                }
            }
        } catch (RuntimeException notJson) {
            return null;
        }
        return null;
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
        return invalid(message, null);
    }

    private static RequestRejectedException invalid(String message, String param) {
        return RequestRejectedException.invalidRequest(message, param);
    }
}
