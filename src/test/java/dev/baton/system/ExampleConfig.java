package dev.baton.system;

import java.util.Map;

/**
 * What {@link ExampleAppIT} adds to the example application: the test servers' JVMs point the sample's Anthropic
 * connection {@code claude} at the simulator for every deployment ({@code baton.connections.claude.base-url}), which
 * the example, having no such connection, would refuse as incomplete. The rest of it makes that a valid connection
 * that no route uses.
 */
public class ExampleConfig extends DeploymentConfig {

    public ExampleConfig() {
        super("baton-example-tests", Map.of(
                "baton.connections.claude.provider", "anthropic",
                "baton.connections.claude.models", "claude-haiku-5-5"));
    }
}
