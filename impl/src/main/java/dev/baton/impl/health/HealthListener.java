package dev.baton.impl.health;

import java.time.Duration;
import java.time.Instant;

/** Told about every change of a connection's rotation. Called under no lock; must be fast and never throw. */
public interface HealthListener {

    HealthListener NONE = new HealthListener() { };

    /**
     * @param coolOff how long it is out of rotation
     * @param cause   the failure kind that ejected it, or {@link ConnectionHealth#OPERATOR_CAUSE}
     */
    default void ejected(String connection, Duration coolOff, String cause) {
    }

    default void parked(String connection, Instant until, String cause) {
    }

    /** Back in rotation: a probe succeeded, or an operator restored it. */
    default void restored(String connection) {
    }
}
