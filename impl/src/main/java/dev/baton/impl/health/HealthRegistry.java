package dev.baton.impl.health;

import dev.baton.impl.config.ConnectionConfig;

import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    public List<ConnectionHealth.Snapshot> snapshots() {
        return byConnection.values().stream().map(ConnectionHealth::snapshot)
                .sorted(java.util.Comparator.comparing(ConnectionHealth.Snapshot::connection)).toList();
    }
}
