package dev.baton.impl.health;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A test clock that moves only when told to. Thread-safe. */
public final class MutableClock implements InstantSource {

    /** A fixed, arbitrary starting point, far from the epoch so that second arithmetic is not special. */
    public static final Instant START = Instant.parse("2025-03-01T12:00:00Z");

    private volatile Instant now;

    public MutableClock() {
        this(START);
    }

    public MutableClock(Instant start) {
        this.now = start;
    }

    @Override
    public Instant instant() {
        return now;
    }

    public synchronized MutableClock advance(Duration by) {
        now = now.plus(by);
        return this;
    }

    public MutableClock advanceSeconds(long seconds) {
        return advance(Duration.ofSeconds(seconds));
    }

    public synchronized void set(Instant instant) {
        now = instant;
    }
}
