package dev.baton.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    @Test
    void prefersRetryAfterMsOverRetryAfter() {
        assertEquals(Duration.ofMillis(1500), parse("retry-after-ms", "1500", "retry-after", "30"));
    }

    @Test
    void fallsBackToRetryAfterWhenRetryAfterMsIsUnusable() {
        assertEquals(Duration.ofSeconds(30), parse("retry-after-ms", "soon", "retry-after", "30"));
    }

    @Test
    void readsRetryAfterMsWithAFraction() {
        assertEquals(Duration.ofMillis(251), parse("retry-after-ms", "250.2"));
    }

    @Test
    void readsWholeSeconds() {
        assertEquals(Duration.ofSeconds(30), parse("retry-after", "30"));
    }

    @Test
    void readsDecimalSeconds() {
        assertEquals(Duration.ofMillis(1500), parse("retry-after", "1.5"));
    }

    @Test
    void readsAnHttpDate() {
        assertEquals(Duration.ofSeconds(45), parse("retry-after", "Wed, 01 Jan 2025 00:00:45 GMT"));
    }

    @Test
    void anHttpDateInThePastIsNull() {
        assertNull(parse("retry-after", "Tue, 31 Dec 2024 23:59:00 GMT"));
    }

    @Test
    void noHeaderIsNull() {
        assertNull(RetryAfter.parse(name -> Optional.empty(), NOW));
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "", "-5", "0", "NaN", "Infinity", "12 seconds", "Wed, 01 Jan 2025"})
    void garbageNegativeOrZeroIsNull(String value) {
        assertNull(parse("retry-after", value));
        assertNull(parse("retry-after-ms", value));
    }

    private static Duration parse(String... namesAndValues) {
        Map<String, String> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return RetryAfter.parse(name -> Optional.ofNullable(map.get(name)), NOW);
    }
}
