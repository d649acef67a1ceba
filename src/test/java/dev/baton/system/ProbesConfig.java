package dev.baton.system;

import java.util.Map;

/**
 * The configuration {@link ProbesIT} adds to the sample, in its own deployment: the primary is ejected after two
 * failures and probed in the background every second, backing off to two seconds.
 */
public class ProbesConfig extends DeploymentConfig {

    public ProbesConfig() {
        super("baton-probes-tests", Map.of(
                "baton.connections.primary.eject-after", "2",
                "baton.connections.primary.probe", "background",
                "baton.connections.primary.probe-interval", "1s",
                "baton.connections.primary.max-probe-interval", "2s"));
    }
}
