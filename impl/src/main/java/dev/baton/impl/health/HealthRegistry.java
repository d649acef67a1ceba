package dev.baton.impl.health;

import dev.baton.impl.config.ConnectionConfig;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The health of every configured connection, per process. Thread-safe; immutable after construction. */
public final class HealthRegistry {

    private final Map<String, ConnectionHealth> byConnection;

    public HealthRegistry(List<ConnectionConfig> connections, InstantSource clock, HealthListener listener) {
        Map<String, ConnectionHealth> map = new LinkedHashMap<>();
        for (ConnectionConfig c : connections) {
            map.put(c.name(), new ConnectionHealth(c.name(), c.health(), clock, listener));
        }
        this.byConnection = Map.copyOf(map);
    }

    public ConnectionHealth of(String connection) {
        ConnectionHealth health = byConnection.get(connection);
        if (health == null) {
            throw new IllegalArgumentException("unknown connection " + connection);
        }
        return health;
    }

    /** The connection's health, or empty when no connection has that name (names from callers, not config). */
    public Optional<ConnectionHealth> find(String connection) {
        return Optional.ofNullable(byConnection.get(connection));
    }

    /**
     * An operator takes {@code connection} out of rotation; see {@link ConnectionHealth#eject(Duration, String)}.
     *
     * @throws IllegalArgumentException for an unknown connection or a duration out of range
     */
    public ConnectionHealth.Snapshot eject(String connection, Duration duration, String reason) {
        ConnectionHealth health = of(connection);
        health.eject(duration, reason);
        return health.snapshot();
    }

    /**
     * An operator puts {@code connection} back in rotation; see {@link ConnectionHealth#restore()}.
     *
     * @throws IllegalArgumentException for an unknown connection
     */
    public ConnectionHealth.Snapshot restore(String connection) {
        ConnectionHealth health = of(connection);
        health.restore();
        return health.snapshot();
    }

    public List<ConnectionHealth.Snapshot> snapshots() {
        return byConnection.values().stream().map(ConnectionHealth::snapshot)
                .sorted(Comparator.comparing(ConnectionHealth.Snapshot::connection)).toList();
    }
}
