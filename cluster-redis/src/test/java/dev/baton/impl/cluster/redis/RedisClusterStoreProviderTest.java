package dev.baton.impl.cluster.redis;

import dev.baton.impl.concurrent.Await;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.cluster.ClusterStores;
import dev.baton.impl.engine.EngineFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** With this module's jar on the class path, baton-impl finds the Redis store by the name configured. */
class RedisClusterStoreProviderTest {

    @Test
    void redisIsFoundByItsNameAndOpensAStoreOnRedis() throws Exception {
        ClusterSettings settings = ClusterNode.settings(RedisProcess.SHARED_URL);
        ClusterStores.require(settings);
        try (ClusterStore store = ClusterStores.open(settings, Thread::new, EngineFixture.TIMER)) {
            assertInstanceOf(RedisClusterStore.class, store);
            assertEquals("redis redis://127.0.0.1:6379", store.describe());
            store.start(message -> { }, up -> { });
            Await.until("the store connects", store::connected, Duration.ofSeconds(5));
            store.put("provider-test", "v", Duration.ofSeconds(5)).get(1, TimeUnit.SECONDS);
            assertEquals("v", store.get("provider-test").get(1, TimeUnit.SECONDS));
        }
    }
}
