package dev.baton.impl.concurrent;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Waits for a condition that another real thread, a real socket or a real Redis brings about, for tests whose subject
 * is exactly that (virtual time cannot stand in for them). The test states what it waits for, not how long: the
 * timeout is only how long a broken build may hang, and a condition that holds ends the wait at once.
 */
public final class Await {

    /** How often the condition is looked at: short next to any timeout, long enough not to starve the others. */
    private static final long POLL_MILLIS = 2;

    private Await() {
    }

    /**
     * Returns once {@code condition} holds; fails the test, naming {@code what}, if it does not within {@code timeout}.
     *
     * @return how long it took, in ms
     */
    public static long until(String what, BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        if (!holdsWithin(condition, timeout)) {
            fail("not within " + timeout + ": " + what);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** Waits until {@code condition} holds or {@code timeout} has passed; whether it holds. */
    public static boolean holdsWithin(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS); // the poll interval: the only pause the tests that use this take
        }
        return true;
    }
}
