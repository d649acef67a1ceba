package dev.baton.impl.servlet;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

final class ClusterSyncWait {

    private ClusterSyncWait() {
    }

    static void until(BooleanSupplier condition, Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "not within " + limit);
            Thread.sleep(2);
        }
    }
}
