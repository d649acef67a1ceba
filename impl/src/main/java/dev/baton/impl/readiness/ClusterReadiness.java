package dev.baton.impl.readiness;

import dev.baton.impl.cluster.ClusterSync;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * MicroProfile Health readiness data of the cluster store: always UP, since a node serves on its own
 * state while the store is unreachable; {@code connected} says whether it is sharing now.
 */
public final class ClusterReadiness implements HealthCheck {

    private final Supplier<Optional<ClusterSync>> cluster;

    public ClusterReadiness(Supplier<Optional<ClusterSync>> cluster) {
        this.cluster = cluster;
    }

    @Override
    public HealthCheckResponse call() {
        Map<String, Object> data = new LinkedHashMap<>();
        cluster.get().ifPresent(c -> {
            ClusterSync.View view = c.view();
            data.put("node", view.node());
            data.put("store", view.store());
            data.put("connected", view.connected());
            data.put("since", String.valueOf(view.connected() ? view.connectedSince() : view.disconnectedSince()));
        });
        return new HealthCheckResponse("baton-cluster", Status.UP, Optional.of(data));
    }
}
