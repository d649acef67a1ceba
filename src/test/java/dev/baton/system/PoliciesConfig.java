package dev.baton.system;

import java.util.Map;

/**
 * Configuration the in-server policy tests add to the sample's, as a config source of their own
 * deployment only: two connections with local limits, a route over each, and an override of a
 * {@code @FailoverPolicy} value. Every URL points at the simulator the tests start in the server.
 */
public class PoliciesConfig extends DeploymentConfig {

    private static final String MODEL = "gpt-5.4-mini";

    public PoliciesConfig() {
        super("baton-policies-tests", values("http://127.0.0.1:" + Ports.simulator()));
    }

    private static Map<String, String> values(String sim) {
        return Map.ofEntries(
                Map.entry("baton.connections.guarded.provider", "openai"),
                Map.entry("baton.connections.guarded.base-url", sim + "/guarded/v1"),
                Map.entry("baton.connections.guarded.models", MODEL),
                Map.entry("baton.connections.guarded.max-concurrent", "1"),
                Map.entry("baton.routes.guarded.targets", "guarded/" + MODEL + ", standby/" + MODEL),
                Map.entry("baton.connections.metered.provider", "openai"),
                Map.entry("baton.connections.metered.base-url", sim + "/metered/v1"),
                Map.entry("baton.connections.metered.models", MODEL),
                Map.entry("baton.connections.metered.rate-limit", "2/1m"),
                Map.entry("baton.routes.metered.targets", "metered/" + MODEL + ", standby/" + MODEL),
                // Failing tests share the sample's two connections: keep them in rotation between tests.
                Map.entry("baton.connections.primary.eject-after", "1000"),
                Map.entry("baton.connections.standby.eject-after", "1000"),
                Map.entry(PolicyProbe.class.getName() + "/configured/FailoverPolicy/degraded",
                        PolicyProbe.FROM_CONFIG),
                // The example of docs/annotations.md §4: the sample's 10 s cut to 2 s.
                Map.entry("dev.baton.sample.DraftService/draftOrNotice/FailoverPolicy/deadline", "2s"));
    }
}
