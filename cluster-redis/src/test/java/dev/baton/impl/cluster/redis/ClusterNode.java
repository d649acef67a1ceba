package dev.baton.impl.cluster.redis;

import dev.baton.impl.concurrent.Await;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/** One node of a test cluster: an engine on real time sharing through its own connections to Redis. */
public record ClusterNode(String name, FailoverEngine engine, ClusterSync sync) implements AutoCloseable {

    /** Settings for a cluster of test nodes: its own key prefix, so tests sharing one Redis never meet. */
    public static ClusterSettings settings(String url) {
        return new ClusterSettings("redis", url, "baton-test:" + UUID.randomUUID() + ":", Duration.ofMillis(50),
                Duration.ofSeconds(1), "unused");
    }

    /** Starts a node and waits until it is connected, for at most 5 s (the caller asserts whether it is). */
    public static ClusterNode start(String name, Map<String, String> props, ClusterSettings settings) throws InterruptedException {
        ClusterSync sync = new ClusterSync(new RedisClusterStore(settings, Thread::new, EngineFixture.TIMER),
                name, Clock.systemUTC());
        FailoverEngine engine = EngineFixture.engine(props, Clock.systemUTC(), sync, sync);
        sync.attach(engine);
        Await.holdsWithin(sync::connected, Duration.ofSeconds(5));
        return new ClusterNode(name, engine, sync);
    }

    @Override
    public void close() {
        sync.close();
    }
}
