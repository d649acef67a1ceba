package dev.baton.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a JSON text without building it: {@link #object} checks the whole text against the JSON grammar once, then
 * {@link Span}s find members and elements by position and decode only the strings asked for. A provider's answer or
 * stream chunk is relayed as it came, and Baton needs only a few facts from it (a finish reason, whether it carries
 * output, the usage, an error); building a tree for each chunk was the largest part of Baton's own work on a
 * stream.
 */
public final class JsonScan {

    /** Far deeper than any chat answer; a bound so that a hostile body cannot exhaust the stack. */
    static final int MAX_DEPTH = 128;
    /**
     * Longer numbers are refused, as Parsson refuses them when it builds the tree of a {@link RawJsonObject} (its
     * default {@code maxBigDecimalLength}): a text accepted here must not fail later, when a member is read.
     */
    static final int MAX_NUMBER_CHARS = 1100;

    private final String text;

    private JsonScan(String text) {
        this.text = text;
    }

    /**
     * The object {@code text} holds, with nothing but whitespace around it.
     *
     * @throws IllegalArgumentException when {@code text} is not exactly one JSON object, nests deeper than 128 levels,
     *                                  or holds a number that is no {@link java.math.BigDecimal} (an exponent out of
     *                                  range) or is longer than 1,100 characters
     */
    public static Span object(String text) {
        return check(text, null, null).root();
    }

    /**
     * The object {@code text} holds, checked, and whether some member called {@code name}, at any depth, may have a
     * string value: true when one has, and whenever a member name is written with an escape (names are not decoded
     * here). The same pass answers it, so a caller that needs it for every stream chunk does not search the text again.
     */
    record Checked(Span root, boolean mayNameAString) {
    }

    /**
     * {@link #object(String)}, noting the object's members in {@code members} (when not {@code null}) as the same pass
     * finds them, so that they need not be looked for again, and whether a member called {@code name} (or
     * {@code null}) may be a string.
     */
    static Checked check(String text, Positions members, String name) {
        Check check = new Check(text, name);
        int start = check.whitespace(0);
        if (start >= check.length || check.bytes[start] != '{') {
            throw new IllegalArgumentException("not a JSON object");
        }
        int end = check.object(start, 1, members);
        if (check.whitespace(end) != check.length) {
            throw new IllegalArgumentException("text after the JSON object at " + end);
        }
        return new Checked(new Span(text, start, end), check.mayNameAString);
    }

    /** One value inside a text already checked: {@code [start, end)}. */
    public record Span(String text, int start, int end) {

        public char kind() {
            return text.charAt(start);
        }

        public boolean isObject() {
            return kind() == '{';
        }

        public boolean isArray() {
            return kind() == '[';
        }

        public boolean isString() {
            return kind() == '"';
        }

        public boolean isNull() {
            return kind() == 'n';
        }

        /** The value's own text. */
        public String json() {
            return text.substring(start, end);
        }

        /** The value of member {@code name} of this object, or {@code null} when there is none (or this is no object). */
        public Span member(String name) {
            return positions().valueOf(text, name);
        }

        /** The members of this object in order; none when this is no object. */
        public List<Member> members() {
            return positions().members(text);
        }

        /** Where this object's members are, found by walking the text checked already; none when this is no object. */
        Positions positions() {
            Positions members = new Positions(4); // a choice or a delta has one to four
            if (isObject()) {
                JsonScan scan = new JsonScan(text);
                int i = scan.whitespace(start + 1);
                while (text.charAt(i) != '}') {
                    int nameEnd = scan.skip(i);
                    int valueStart = scan.whitespace(scan.whitespace(nameEnd) + 1);
                    int valueEnd = scan.skip(valueStart);
                    members.add(i, nameEnd, valueStart, valueEnd);
                    i = scan.next(valueEnd);
                }
            }
            return members;
        }

        /** The elements of this array in order; none when this is no array. */
        public List<Span> elements() {
            List<Span> elements = new ArrayList<>();
            if (isArray()) {
                JsonScan scan = new JsonScan(text);
                int i = scan.whitespace(start + 1);
                while (text.charAt(i) != ']') {
                    int end = scan.skip(i);
                    elements.add(new Span(text, i, end));
                    i = scan.next(end);
                }
            }
            return elements;
        }

        /** This string decoded, or {@code null} when this is no string. */
        public String string() {
            if (!isString()) {
                return null;
            }
            int close = end - 1;
            int escape = text.indexOf('\\', start + 1);
            if (escape < 0 || escape >= close) {
                return text.substring(start + 1, close);
            }
            StringBuilder out = new StringBuilder(close - start);
            for (int i = start + 1; i < close; i++) {
                char c = text.charAt(i);
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = text.charAt(++i);
                switch (e) {
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text, i + 1, i + 5, 16));
                        i += 4;
                    }
                    default -> out.append(e); // " \ /
                }
            }
            return out.toString();
        }
    }

    /**
     * The members of an object as the check found them: four positions each (name start and end, value start and
     * end), in one array. A stream chunk has a dozen members and is asked for three; objects for each would be most of
     * what the check allocates.
     */
    static final class Positions {
        private int[] at;
        private int count;

        /** Room for eight members: a stream chunk's top level. */
        Positions() {
            this(8);
        }

        Positions(int members) {
            at = new int[4 * members];
        }

        void add(int nameStart, int nameEnd, int valueStart, int valueEnd) {
            int k = 4 * count;
            if (k == at.length) {
                at = Arrays.copyOf(at, 2 * k);
            }
            at[k] = nameStart;
            at[k + 1] = nameEnd;
            at[k + 2] = valueStart;
            at[k + 3] = valueEnd;
            count++;
        }

        /** The value of the last member named {@code name} (the one a parsed tree keeps), or {@code null}. */
        Span valueOf(String text, String name) {
            for (int k = 4 * (count - 1); k >= 0; k -= 4) {
                if (Member.nameIs(text, at[k], at[k + 1], name)) {
                    return new Span(text, at[k + 2], at[k + 3]);
                }
            }
            return null;
        }

        /** The members in order. */
        List<Member> members(String text) {
            List<Member> members = new ArrayList<>(count);
            for (int k = 0; k < 4 * count; k += 4) {
                members.add(new Member(new Span(text, at[k], at[k + 1]), new Span(text, at[k + 2], at[k + 3])));
            }
            return members;
        }
    }

    /** A member of an object: its name as written (a string) and its value. */
    public record Member(Span name, Span value) {

        public boolean nameIs(String expected) {
            return nameIs(name.text(), name.start(), name.end(), expected);
        }

        /** Whether the string at {@code [start, end)} of {@code text} is {@code expected}. */
        static boolean nameIs(String text, int start, int end, String expected) {
            // The raw name is the expected one between quotes, unless it was written with escapes.
            int length = end - start - 2;
            if (length == expected.length()) {
                return text.regionMatches(start + 1, expected, 0, length);
            }
            if (length < expected.length()) {
                return false; // an escape only ever lengthens a name
            }
            char first = text.charAt(start + 1);
            if (first != '\\' && (expected.isEmpty() || first != expected.charAt(0))) {
                return false; // an unescaped character stands for itself: most longer names end here, unscanned
            }
            for (int i = start + 1; i < end - 1; i++) {
                if (text.charAt(i) == '\\') {
                    return expected.equals(new Span(text, start, end).string());
                }
            }
            return false;
        }
    }

    /** Past a separating comma and whitespace, to the next member or element, or at the closing bracket. */
    private int next(int i) {
        i = whitespace(i);
        return text.charAt(i) == ',' ? whitespace(i + 1) : i;
    }

    /**
     * The index after the value at {@code i} of a text already checked: strings are skipped with
     * {@link String#indexOf(int, int)}, containers by counting brackets outside strings, nothing is checked again.
     */
    private int skip(int i) {
        char c = text.charAt(i);
        if (c == '"') {
            return skipString(i);
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            for (int j = i; ; j++) {
                char d = text.charAt(j);
                if (d == '"') {
                    j = skipString(j) - 1;
                } else if (d == '{' || d == '[') {
                    depth++;
                } else if ((d == '}' || d == ']') && --depth == 0) {
                    return j + 1;
                }
            }
        }
        int j = i + 1; // a number or a literal: up to the next delimiter
        while (j < text.length() && ",}] \t\n\r".indexOf(text.charAt(j)) < 0) {
            j++;
        }
        return j;
    }

    /** The index after the closing quote of the checked string at {@code i}. */
    private int skipString(int i) {
        int from = i + 1;
        while (true) {
            int quote = text.indexOf('"', from);
            int backslashes = 0;
            while (text.charAt(quote - 1 - backslashes) == '\\') {
                backslashes++;
            }
            if (backslashes % 2 == 0) {
                return quote + 1;
            }
            from = quote + 1;
        }
    }

    /** The index of the first character at or after {@code i} that is not JSON whitespace. */
    private int whitespace(int i) {
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            i++;
        }
        return i;
    }

    /**
     * The grammar check: one pass over a copy of the text with one byte per character, so that positions are the
     * text's. Every character the grammar names is ASCII and keeps its byte; any other becomes a byte the grammar
     * allows inside strings only, as it allows that character. Inside strings, where most of a text is, eight bytes
     * are looked at a time. For a text of Latin-1 characters (nearly every provider's chunk) the copy is one intrinsic.
     */
    private static final class Check {

        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
                ByteOrder.LITTLE_ENDIAN);
        private static final long ONES = 0x0101010101010101L;
        private static final long HIGHS = 0x8080808080808080L;
        private static final long QUOTES = ONES * '"';
        private static final long BACKSLASHES = ONES * '\\';
        private static final long SPACES = ONES * 0x20;

        private final String text;
        private final byte[] bytes;
        private final int length;
        /** The member name {@link Checked#mayNameAString} asks about, or {@code null}. */
        private final String name;
        boolean mayNameAString;
        /** The string {@link #string} checked last had an escape. */
        private boolean lastStringEscaped;

        Check(String text, String name) {
            this.text = text;
            this.name = name;
            this.bytes = oneBytePerChar(text);
            this.length = bytes.length;
        }

        private static byte[] oneBytePerChar(String text) {
            byte[] latin1 = text.getBytes(StandardCharsets.ISO_8859_1); // others become '?', a pair of surrogates one
            if (latin1.length == text.length()) {
                return latin1;
            }
            byte[] bytes = new byte[text.length()];
            for (int i = 0; i < bytes.length; i++) {
                char c = text.charAt(i);
                bytes[i] = c < 0x80 ? (byte) c : (byte) 0x80;
            }
            return bytes;
        }

        int whitespace(int i) {
            while (i < length) {
                byte c = bytes[i];
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                    break;
                }
                i++;
            }
            return i;
        }

        /** Checks the value starting at {@code i} (no whitespace before it) and returns the index after it. */
        private int value(int i, int depth) {
            if (i >= length) {
                throw malformed(i);
            }
            return switch (bytes[i]) {
                case '{' -> object(i, depth + 1, null);
                case '[' -> array(i, depth + 1);
                case '"' -> string(i);
                case 't' -> literal(i, "true");
                case 'f' -> literal(i, "false");
                case 'n' -> literal(i, "null");
                default -> number(i);
            };
        }

        /** Checks the object at {@code i}; its members go to {@code members} when that is not {@code null}. */
        int object(int i, int depth, Positions members) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("JSON nested deeper than " + MAX_DEPTH);
            }
            i = whitespace(i + 1);
            if (at(i, '}')) {
                return i + 1;
            }
            while (true) {
                if (!at(i, '"')) {
                    throw malformed(i);
                }
                int nameStart = i;
                int nameEnd = string(i);
                boolean escapedName = lastStringEscaped;
                i = whitespace(nameEnd);
                if (!at(i, ':')) {
                    throw malformed(i);
                }
                int valueStart = whitespace(i + 1);
                if (name != null && !mayNameAString && (escapedName || at(valueStart, '"')
                        && nameEnd - nameStart - 2 == name.length() && text.startsWith(name, nameStart + 1))) {
                    mayNameAString = true;
                }
                int valueEnd = value(valueStart, depth);
                if (members != null) {
                    members.add(nameStart, nameEnd, valueStart, valueEnd);
                }
                i = whitespace(valueEnd);
                if (at(i, '}')) {
                    return i + 1;
                }
                if (!at(i, ',')) {
                    throw malformed(i);
                }
                i = whitespace(i + 1);
            }
        }

        private int array(int i, int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("JSON nested deeper than " + MAX_DEPTH);
            }
            i = whitespace(i + 1);
            if (at(i, ']')) {
                return i + 1;
            }
            while (true) {
                i = whitespace(value(i, depth));
                if (at(i, ']')) {
                    return i + 1;
                }
                if (!at(i, ',')) {
                    throw malformed(i);
                }
                i = whitespace(i + 1);
            }
        }

        private int string(int i) {
            lastStringEscaped = false;
            for (i++; i < length; i++) {
                i = plain(i);
                if (i == length) {
                    break;
                }
                byte c = bytes[i];
                if (c == '"') {
                    return i + 1;
                }
                if (c >= 0 && c < 0x20) {
                    throw malformed(i);
                }
                if (c == '\\') {
                    lastStringEscaped = true;
                    byte e = i + 1 < length ? bytes[++i] : 0;
                    if (e == 'u') {
                        for (int k = 0; k < 4; k++) {
                            if (++i >= length || Character.digit(bytes[i], 16) < 0) {
                                throw malformed(i);
                            }
                        }
                    } else if ("\"\\/bfnrt".indexOf(e) < 0 || e == 0) {
                        throw malformed(i);
                    }
                }
            }
            throw malformed(i);
        }

        /**
         * Past the bytes from {@code i} on that a string holds as they are: eight at a time while none of the eight is
         * a quote, a backslash or a control character, then one at a time. Returns the index of the first other byte,
         * or the end.
         */
        private int plain(int i) {
            for (; i + Long.BYTES <= length; i += Long.BYTES) {
                long word = (long) LONGS.get(bytes, i);
                long quote = word ^ QUOTES; // a zero byte where a quote is
                long backslash = word ^ BACKSLASHES;
                long control = (word - SPACES) & ~word; // a high bit where a byte is below 0x20
                long found = ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | control) & HIGHS;
                if (found != 0) {
                    // The lowest mark is exact (a borrow only ever marks bytes above a real one): the first of them.
                    return i + (Long.numberOfTrailingZeros(found) >>> 3);
                }
            }
            for (; i < length; i++) {
                byte c = bytes[i];
                if (c == '"' || c == '\\' || c >= 0 && c < 0x20) {
                    return i;
                }
            }
            return length;
        }

        private int literal(int i, String word) {
            if (!text.startsWith(word, i)) {
                throw malformed(i);
            }
            return i + word.length();
        }

        /**
         * {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}, and what {@link java.math.BigDecimal} reads:
         * a tree built from the text later reads every number as one.
         */
        private int number(int i) {
            int start = i;
            if (at(i, '-')) {
                i++;
            }
            if (at(i, '0')) {
                i++;
            } else {
                i = digits(i);
            }
            if (at(i, '.')) {
                i = digits(i + 1);
            }
            if (at(i, 'e') || at(i, 'E')) {
                i++;
                if (at(i, '+') || at(i, '-')) {
                    i++;
                }
                i = digits(i);
                try {
                    new BigDecimal(text.substring(start, i)); // only an exponent can put a number out of its range
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("JSON number out of range at " + start);
                }
            }
            if (i - start > MAX_NUMBER_CHARS) {
                throw new IllegalArgumentException("JSON number longer than " + MAX_NUMBER_CHARS + " characters at "
                        + start);
            }
            return i;
        }

        /** One or more digits. */
        private int digits(int i) {
            int start = i;
            while (i < length && bytes[i] >= '0' && bytes[i] <= '9') {
                i++;
            }
            if (i == start) {
                throw malformed(i);
            }
            return i;
        }

        private boolean at(int i, char c) {
            return i < length && bytes[i] == c;
        }
    }

    private static IllegalArgumentException malformed(int at) {
        return new IllegalArgumentException("malformed JSON at " + at);
    }
}
