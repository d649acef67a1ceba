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

    /** Tells {@code first}, then {@code second}. */
    static HealthListener both(HealthListener first, HealthListener second) {
        return new HealthListener() {
            @Override
            public void ejected(String connection, Duration coolOff, String cause) {
                first.ejected(connection, coolOff, cause);
                second.ejected(connection, coolOff, cause);
            }

            @Override
            public void parked(String connection, Instant until, String cause) {
                first.parked(connection, until, cause);
                second.parked(connection, until, cause);
            }

            @Override
            public void restored(String connection) {
                first.restored(connection);
                second.restored(connection);
            }
        };
    }
}
