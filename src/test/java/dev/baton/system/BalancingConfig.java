package dev.baton.system;

import java.util.Map;

/**
 * The routes {@link BalancingIT} adds to the sample, in its own deployment: the sample's two
 * connections shared 3:1 by a weighted route, and kept per session by a sticky one.
 */
public class BalancingConfig extends DeploymentConfig {

    private static final Map<String, String> VALUES = Map.ofEntries(
            Map.entry("baton.routes.weighted.targets", "primary/gpt-5.4-mini weight=3, standby/gpt-5.4-mini weight=1"),
            Map.entry("baton.routes.weighted.balance", "weighted"),
            Map.entry("baton.routes.sessions.targets", "primary/gpt-5.4-mini, standby/gpt-5.4-mini"),
            Map.entry("baton.routes.sessions.balance", "sticky"),
            Map.entry("baton.endpoint.allowed-models", "demo,mixed,gpt-5.4-mini,weighted,sessions"));

    public BalancingConfig() {
        super("baton-balancing-tests", VALUES);
    }
}
