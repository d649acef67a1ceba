package dev.baton.impl.cluster.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Waits for a condition in real time, checking every millisecond: for what a real Redis and the nodes' own threads
 * do, which no test clock drives. A test waits for what it expects instead of sleeping a guessed time.
 */
public final class Await {

    private Await() {
    }

    /**
     * Waits until {@code condition} holds, failing the test after {@code limit}.
     *
     * @return how long it took, in ms
     */
    public static long until(BooleanSupplier condition, Duration limit, String what) throws InterruptedException {
        long start = System.nanoTime();
        assertTrue(holdsWithin(condition, limit), what + " within " + limit.toMillis() + " ms");
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** Waits until {@code condition} holds or {@code limit} has passed; whether it holds. */
    public static boolean holdsWithin(BooleanSupplier condition, Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }
}
