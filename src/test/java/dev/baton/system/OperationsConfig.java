package dev.baton.system;

import java.util.Map;

/**
 * The configuration {@link OperationsIT} adds to the sample, in its own deployment: connections
 * that eject after two failures and, in probe mode {@code request} (a request is the probe; the
 * background mode has {@link ProbesIT}), come back after two seconds, and MicroProfile Telemetry
 * turned on with the logging exporters, so spans and metrics land in the server's log; and the sample's console
 * turned off, to see that it is then not there at all.
 */
public class OperationsConfig extends DeploymentConfig {

    private static final Map<String, String> VALUES = Map.ofEntries(
            Map.entry("baton.endpoint.console.enabled", "false"),
            Map.entry("baton.connections.primary.eject-after", "2"),
            Map.entry("baton.connections.primary.cool-off", "2s"),
            Map.entry("baton.connections.standby.eject-after", "2"),
            Map.entry("baton.connections.standby.cool-off", "2s"),
            Map.entry("baton.connections.primary.probe", "request"),
            Map.entry("baton.connections.standby.probe", "request"),
            Map.entry("otel.sdk.disabled", "false"),
            Map.entry("otel.service.name", "baton-system-tests"),
            Map.entry("otel.traces.exporter", "logging"),
            Map.entry("otel.metrics.exporter", "logging"),
            Map.entry("otel.logs.exporter", "none"),
            Map.entry("otel.metric.export.interval", "500"),
            Map.entry("otel.bsp.schedule.delay", "100"));

    public OperationsConfig() {
        super("baton-operations-tests", VALUES);
    }
}
