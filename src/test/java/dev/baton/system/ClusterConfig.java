package dev.baton.system;

import java.util.Map;

/**
 * The configuration {@link ClusterIT} adds to the sample, on both servers: the cluster store on the Redis the
 * development machine and CI run on 127.0.0.1:6379, under a prefix of these tests' own, and background probes
 * spaced out so that none runs during a test.
 */
public class ClusterConfig extends DeploymentConfig {

    static final String PREFIX = "baton-it-cluster:";

    public ClusterConfig() {
        super("baton-cluster-tests", Map.of(
                "baton.cluster.store", "redis",
                "baton.cluster.redis.url", "redis://127.0.0.1:6379",
                "baton.cluster.redis.key-prefix", PREFIX,
                "baton.connections.primary.probe-interval", "1h",
                "baton.connections.primary.max-probe-interval", "1h"));
    }
}
