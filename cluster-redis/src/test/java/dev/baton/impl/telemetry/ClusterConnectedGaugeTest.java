package dev.baton.impl.telemetry;

import dev.baton.impl.cluster.redis.ClusterNode;
import dev.baton.impl.cluster.redis.RedisProcess;
import dev.baton.impl.concurrent.Await;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.testkit.ProviderSimulatorExtension;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

/** {@code baton.cluster.connected} follows a real Redis going away and coming back. */
class ClusterConnectedGaugeTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

    private long connected() {
        return otel.getMetrics().stream().filter(m -> m.getName().equals("baton.cluster.connected"))
                .flatMap(m -> m.getLongGaugeData().getPoints().stream())
                .filter(p -> p.getAttributes().equals(Attributes.empty())).mapToLong(LongPointData::getValue)
                .findFirst().orElse(-1);
    }

    private void await(long value) throws InterruptedException {
        Await.until("baton.cluster.connected " + value, () -> connected() == value, Duration.ofSeconds(5));
    }

    @Test
    void zeroWhileRedisIsDownOneWhenItIsBack() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             ClusterNode node = ClusterNode.start("A", EngineFixture.connections(sim.simulator(), "m", "a"),
                     ClusterNode.settings(redis.url()))) {
            OtelObserver observer = new OtelObserver(otel.getOpenTelemetry());
            observer.watchCluster(node.sync()::connected);
            await(1);
            redis.kill();
            await(0);
            redis.restart();
            await(1);
        }
    }
}
