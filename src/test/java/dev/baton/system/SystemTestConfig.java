package dev.baton.system;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * Configuration the in-server policy tests add to the sample's, as a config source of their own
 * deployment only: two connections with local limits, a route over each, and an override of a
 * {@code @FailoverPolicy} value. Every URL points at the simulator the tests start in the server.
 */
public class SystemTestConfig implements ConfigSource {

    private static final String MODEL = "gpt-5.4-mini";

    private final Map<String, String> values;

    public SystemTestConfig() {
        String sim = "http://127.0.0.1:" + Ports.simulator();
        values = Map.ofEntries(
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
                Map.entry(PolicyProbe.class.getName() + "/configured/FailoverPolicy/degraded", PolicyProbe.FROM_CONFIG),
                // The example of docs/annotations.md §4: the sample's 10 s cut to 2 s.
                Map.entry("dev.baton.sample.DraftService/draftOrNotice/FailoverPolicy/deadline", "2s"));
    }

    @Override
    public Set<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return values.get(propertyName);
    }

    @Override
    public String getName() {
        return "baton-system-tests";
    }

    @Override
    public int getOrdinal() {
        return 150; // above microprofile-config.properties (100), below system properties (400)
    }
}
