package dev.baton.wire;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.spi.ProviderTransport.ResponseHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RetryAfter} on any header values: never an exception (its refusal is {@code null}), never a wait that is not
 * positive, never more than a day for a number. An input is the {@code retry-after} value, then after a line feed the
 * {@code retry-after-ms} value when there is one.
 */
class RetryAfterFuzzTest {

    private static final Instant NOW = Instant.parse("2026-12-03T13:00:00Z");

    @FuzzTest
    @DictionaryFile(resourcePath = "/dev/baton/wire/retry-after.dict")
    void aPositiveWaitOrNull(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        int lf = text.indexOf('\n');
        String retryAfter = lf < 0 ? text : text.substring(0, lf);
        String retryAfterMs = lf < 0 ? null : text.substring(lf + 1);

        Duration wait = RetryAfter.parse(retryAfter, NOW);
        assertValid(wait);
        if (wait != null && wait.toMillis() > 86_400_000) {
            assertTrue(!isNumber(retryAfter), "a number of seconds past a day: " + wait);
        }
        ResponseHeaders headers = name -> Optional.ofNullable(switch (name) {
            case "retry-after" -> retryAfter;
            case "retry-after-ms" -> retryAfterMs;
            default -> null;
        });
        assertValid(RetryAfter.parse(headers, NOW));
    }

    private static boolean isNumber(String value) {
        try {
            Double.parseDouble(value.strip());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void assertValid(Duration wait) {
        assertTrue(wait == null || !wait.isNegative() && !wait.isZero(), "a wait that is not positive: " + wait);
    }
}
