package dev.baton.system;

import java.util.Map;

/**
 * The configuration {@link ConsoleIT} adds to the sample (whose console is on): a named key with a budget (so the
 * console has a budget to show), and the primary account ejected after three failures.
 */
public class ConsoleConfig extends DeploymentConfig {

    static final String TEAM_KEY = "baton-it-console-team-key";

    public ConsoleConfig() {
        super("baton-console-tests", Map.of(
                "baton.endpoint.keys.team.sha256", CostConfig.sha256(TEAM_KEY),
                "baton.endpoint.keys.team.budget", "5/1d",
                "baton.connections.primary.eject-after", "3"));
    }
}
