package dev.baton.system;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * Turns on the JDBC record store for {@link RecordsIT}'s deployment, on the server's default
 * DataSource: PostgreSQL on the Liberty test server (its server.xml), WildFly's embedded H2.
 */
public class RecordsConfig implements ConfigSource {

    static final String PREFIX = "baton_it_";

    private static final Map<String, String> VALUES = Map.of(
            "baton.records.store", "jdbc",
            "baton.records.table-prefix", PREFIX,
            // Keep the connections in rotation through the failures the tests provoke.
            "baton.connections.primary.eject-after", "1000");

    @Override
    public Set<String> getPropertyNames() {
        return VALUES.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return VALUES.get(propertyName);
    }

    @Override
    public String getName() {
        return "baton-records-tests";
    }

    @Override
    public int getOrdinal() {
        return 150;
    }
}
