package dev.baton.impl.concurrent;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay: every timeout and wait of the engine and the endpoint. Injected so that
 * tests can run those on virtual time. A task must not block. Thread-safe.
 */
@FunctionalInterface
public interface Scheduler {

    /** Runs {@code task} once {@code delay} has passed (at once for a delay of zero or less). */
    Scheduled schedule(Duration delay, Runnable task);

    /** A task not run yet. */
    @FunctionalInterface
    interface Scheduled {
        /** Makes sure the task does not run, if it has not started yet. */
        void cancel();
    }

    /**
     * A scheduler on {@code timer}, which stays its owner's to shut down. A cancelled task is let go of at once, even
     * where the timer keeps its entry queued for a while (see {@code Threads.timer}).
     */
    static Scheduler on(ScheduledExecutorService timer) {
        return (delay, task) -> {
            var entry = new TimerEntry(task);
            entry.scheduled(timer.schedule(entry, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS));
            return entry;
        };
    }
}
