package dev.baton.impl.engine;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that moves only when told to; drives health (cool-offs, parking) in engine tests. */
final class TestClock implements InstantSource {
    private volatile Instant now = Instant.parse("2026-11-30T10:00:00Z");

    @Override
    public Instant instant() {
        return now;
    }

    void advance(Duration d) {
        now = now.plus(d);
    }
}
