package dev.baton.impl.engine;

import java.time.Duration;
import java.util.random.RandomGenerator;

/** Full-jitter exponential backoff: retry n waits {@code random(0, min(max, base · 2ⁿ))}. */
public final class Backoff {

    private Backoff() {
    }

    /** @param retry 0 for the first retry */
    public static Duration fullJitter(Duration base, Duration max, int retry, RandomGenerator random) {
        long ceiling = Math.min(max.toMillis(), base.toMillis() << Math.min(retry, 20));
        return ceiling <= 0 ? Duration.ZERO : Duration.ofMillis(random.nextLong(ceiling + 1));
    }
}
