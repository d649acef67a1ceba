package dev.baton.impl.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackoffTest {

    private static final Duration BASE = Duration.ofMillis(200);
    private static final Duration MAX = Duration.ofSeconds(2);

    @Test
    void fullJitterStaysWithinZeroAndBaseTimesTwoToTheN() {
        Random random = new Random(42);
        for (int retry = 0; retry <= 3; retry++) {
            long ceiling = 200L << retry;
            long lowest = Long.MAX_VALUE;
            long highest = Long.MIN_VALUE;
            for (int i = 0; i < 5_000; i++) {
                long ms = Backoff.fullJitter(BASE, MAX, retry, random).toMillis();
                assertTrue(ms >= 0 && ms <= ceiling, "retry " + retry + " drew " + ms + "ms, ceiling " + ceiling);
                lowest = Math.min(lowest, ms);
                highest = Math.max(highest, ms);
            }
            // Full jitter spreads over the whole range, not a fixed or halved delay.
            assertTrue(lowest < ceiling / 10, "retry " + retry + " lowest " + lowest);
            assertTrue(highest > ceiling * 9 / 10, "retry " + retry + " highest " + highest);
        }
    }

    @Test
    void theCapBoundsLaterRetries() {
        Random random = new Random(7);
        long highest = 0;
        for (int i = 0; i < 5_000; i++) {
            long ms = Backoff.fullJitter(BASE, MAX, 4, random).toMillis(); // 200·2⁴ = 3200 > 2000
            assertTrue(ms <= 2000, "drew " + ms);
            highest = Math.max(highest, ms);
        }
        assertTrue(highest > 1800, "highest " + highest);
        for (int retry : new int[] {10, 30, 63, 1000}) {
            assertTrue(Backoff.fullJitter(BASE, MAX, retry, random).toMillis() <= 2000, "retry " + retry);
        }
    }

    @Test
    void aZeroBaseGivesZero() {
        Random random = new Random(1);
        for (int retry = 0; retry < 5; retry++) {
            assertEquals(Duration.ZERO, Backoff.fullJitter(Duration.ZERO, MAX, retry, random));
        }
    }

    @Test
    void aZeroCapGivesZero() {
        assertEquals(Duration.ZERO, Backoff.fullJitter(BASE, Duration.ZERO, 2, new Random(1)));
    }
}
