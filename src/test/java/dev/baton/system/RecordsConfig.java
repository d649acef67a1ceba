package dev.baton.system;

import java.util.Map;

/**
 * Turns on the JDBC record store for {@link RecordsIT}'s deployment, on the server's default
 * DataSource: PostgreSQL on the Liberty test server (its server.xml), WildFly's embedded H2.
 */
public class RecordsConfig extends DeploymentConfig {

    static final String PREFIX = "baton_it_";

    private static final Map<String, String> VALUES = Map.of(
            "baton.records.store", "jdbc",
            "baton.records.table-prefix", PREFIX,
            // Keep the connections in rotation through the failures the tests provoke.
            "baton.connections.primary.eject-after", "1000");

    public RecordsConfig() {
        super("baton-records-tests", VALUES);
    }
}
