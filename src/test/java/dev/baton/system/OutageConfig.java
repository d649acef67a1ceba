package dev.baton.system;

import java.util.Map;

/**
 * A cool-off (5 s) well inside the demo route's deadline (20 s), for {@link OutageIT}: the set-up in which an engine
 * that waits for a cool-off to end would hold its callers.
 */
public class OutageConfig extends DeploymentConfig {

    public OutageConfig() {
        super("baton-outage-tests", Map.of(
                "baton.connections.primary.cool-off", "5s",
                "baton.connections.standby.cool-off", "5s"));
    }
}
