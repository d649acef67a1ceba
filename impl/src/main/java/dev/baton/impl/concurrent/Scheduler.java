package dev.baton.impl.concurrent;

import java.time.Duration;

/**
 * Runs a task after a delay: every timeout and wait of the engine and the endpoint. Injected so that
 * tests can run those on virtual time; {@link DeadlineTimer} runs them on real time. A task must not block. Thread-safe.
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
}
