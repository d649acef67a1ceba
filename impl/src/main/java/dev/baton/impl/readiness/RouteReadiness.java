package dev.baton.impl.readiness;

import dev.baton.impl.config.RouteConfig;
import dev.baton.impl.config.TargetRef;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.health.Availability;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * MicroProfile Health readiness of one route: UP while at least one of its targets may be tried
 * now (healthy, or ejected with its probe due), DOWN when none can, with each connection's state
 * and until when in the data. A provider outage makes a route not ready; it never makes the
 * process not live, so Baton registers no liveness check.
 */
public final class RouteReadiness implements HealthCheck {

    private final String route;
    private final Supplier<FailoverEngine> engine;

    public RouteReadiness(String route, Supplier<FailoverEngine> engine) {
        this.route = route;
        this.engine = engine;
    }

    @Override
    public HealthCheckResponse call() {
        // The constructor, not HealthCheckResponse.named(): the builder needs the server's SPI provider.
        String name = "baton-route-" + route;
        FailoverEngine e = engine.get();
        RouteConfig config = e.config().routes().get(route);
        if (config == null) {
            return new HealthCheckResponse(name, Status.DOWN, Optional.of(Map.of("reason", "not configured")));
        }
        Map<String, Object> data = new LinkedHashMap<>();
        long eligible = 0;
        for (TargetRef target : config.targets()) {
            Availability a = e.health().of(target.connection()).availability(target.model());
            if (a.usableNow()) {
                eligible++;
            }
            data.putIfAbsent(target.connection(), describe(a));
        }
        data.put("eligible", eligible);
        data.put("targets", (long) config.targets().size());
        return new HealthCheckResponse(name, eligible > 0 ? Status.UP : Status.DOWN, Optional.of(data));
    }

    /** {@code healthy}, {@code probe due}, {@code probing}, {@code parked until <instant>}, {@code parked for its spend limit until <instant>} or {@code ejected until <instant>}. */
    static String describe(Availability a) {
        return switch (a.state()) {
            case AVAILABLE -> a.deprioritised() ? "healthy (last for this model: it said it cannot serve it)" : "healthy";
            case PROBE_DUE -> "ejected, probe due";
            case PROBING -> "ejected, probe in flight";
            case PARKED -> "parked until " + a.until();
            case SPENT -> "parked for its spend limit until " + a.until();
            case EJECTED -> "ejected until " + a.until();
        };
    }
}
