package dev.baton.impl.health;

import java.time.Instant;

/**
 * Whether a target may be attempted now, and if not, from when.
 *
 * @param state         the connection's state as the planner sees it
 * @param until         when an ejection or parking ends; {@code null} when available
 * @param deprioritised the connection said recently that it cannot serve this model
 */
public record Availability(State state, Instant until, boolean deprioritised) {

    public enum State {
        /** Healthy and not parked. */
        AVAILABLE,
        /** Ejected, cool-off over, no probe in flight: the next attempt is the probe. */
        PROBE_DUE,
        /** Rate limited until {@link #until}: a short wait may bring it back. */
        PARKED,
        /** Out of spend until {@link #until}: parked like a rate limit, but no request waits for it. */
        SPENT,
        /** Out of rotation until {@link #until}. */
        EJECTED,
        /** Ejected, and another request's probe is in flight. */
        PROBING
    }

    public boolean usableNow() {
        return state == State.AVAILABLE || state == State.PROBE_DUE;
    }
}
