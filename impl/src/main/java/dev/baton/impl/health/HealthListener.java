package dev.baton.impl.health;

import java.time.Duration;
import java.time.Instant;

/** Told about every change of a connection's rotation. Called under no lock; must be fast and never throw. */
public interface HealthListener {

    HealthListener NONE = new HealthListener() { };

    default void ejected(String connection, Duration coolOff, String cause) {
    }

    default void parked(String connection, Instant until, String cause) {
    }

    default void restored(String connection) {
    }
}
