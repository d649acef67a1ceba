package dev.baton.wire;

import dev.baton.spi.ProviderTransport.ResponseHeaders;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads a provider's requested wait: {@code retry-after-ms} first (the official SDKs prefer it),
 * then {@code retry-after} as seconds (integer or decimal) or an HTTP date.
 */
public final class RetryAfter {

    private RetryAfter() {
    }

    /** The wait, or {@code null} when absent, unparsable or not positive. */
    public static Duration parse(ResponseHeaders headers, Instant now) {
        Duration ms = headers.firstValue("retry-after-ms").map(v -> decimal(v, 1)).orElse(null);
        if (ms != null) {
            return ms;
        }
        return headers.firstValue("retry-after").map(v -> parse(v, now)).orElse(null);
    }

    public static Duration parse(String value, Instant now) {
        Duration seconds = decimal(value, 1000);
        if (seconds != null) {
            return seconds;
        }
        try {
            Instant at = ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration wait = Duration.between(now, at);
            return wait.isNegative() || wait.isZero() ? null : wait;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Duration decimal(String value, int millisPerUnit) {
        try {
            double amount = Double.parseDouble(value.strip());
            if (!(amount > 0) || Double.isInfinite(amount)) {
                return null;
            }
            return Duration.ofMillis((long) Math.ceil(Math.min(amount * millisPerUnit, 86_400_000d)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
