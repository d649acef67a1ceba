package dev.baton.impl.concurrent;

/**
 * Monotonic time in nanoseconds, for deadlines and durations: wall-clock jumps must neither stretch
 * nor cut them. Injected so that tests can move time themselves. Thread-safe.
 */
@FunctionalInterface
public interface Ticker {

    Ticker SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin; only differences mean anything. */
    long nanos();
}
