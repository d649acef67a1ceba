package dev.baton.system;

import java.util.Map;

/** What {@link NoFaultToleranceIT} adds to the example application: a bulkhead on one connection. */
public class LimitsConfig extends DeploymentConfig {

    public LimitsConfig() {
        super("baton-limits-tests", Map.of("baton.connections.standby.max-concurrent", "4"));
    }
}
