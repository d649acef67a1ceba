package dev.baton.impl.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses configuration durations: {@code 250ms}, {@code 30s}, {@code 2m}, {@code 1h} or ISO-8601 {@code PT30S}. */
public final class Durations {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    private Durations() {
    }

    /** @throws IllegalArgumentException with a message that says which forms are accepted */
    public static Duration parse(String text) {
        String value = text.strip();
        Matcher m = SIMPLE.matcher(value);
        if (m.matches()) {
            try {
                long amount = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    default -> Duration.ofHours(amount);
                };
            } catch (ArithmeticException e) { // NumberFormatException is an IllegalArgumentException already
                throw new IllegalArgumentException("'" + text + "' is too long a duration");
            }
        }
        if (value.startsWith("P") || value.startsWith("p")) {
            try {
                return Duration.parse(value);
            } catch (DateTimeParseException e) {
                // fall through to the common message
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration; write it as 250ms, 30s, 2m, 1h or PT30S");
    }

    /** Short human form for messages and records: {@code 1500ms}, {@code 30s}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }
}
