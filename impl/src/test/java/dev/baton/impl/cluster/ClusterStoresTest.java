package dev.baton.impl.cluster;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.concurrent.Scheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** baton-impl alone: the Redis store's module is not on this class path, as in a WAR that left it out. */
class ClusterStoresTest {

    private static final ClusterSettings REDIS = new ClusterSettings("redis", "redis://127.0.0.1:6379", "baton:",
            Duration.ofMillis(50), Duration.ofSeconds(1), "node-1");
    private static final ThreadFactory NO_THREADS = r -> {
        throw new AssertionError("a store that is not there starts no thread");
    };
    private static final Scheduler NO_SCHEDULER = (delay, task) -> {
        throw new AssertionError("a store that is not there schedules nothing");
    };

    @Test
    void redisWithoutItsModuleIsRefusedNamingTheKeyAndTheArtifact() {
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class,
                () -> ClusterStores.open(REDIS, NO_THREADS, NO_SCHEDULER));
        assertEquals("baton.cluster.store=redis needs baton-cluster-redis on the class path"
                + " (dev.baton:baton-cluster-redis)", e.getMessage());
        assertEquals(e.getMessage(), assertThrows(FailoverDefinitionException.class,
                () -> ClusterStores.require(REDIS)).getMessage(), "the check a deployment can make before opening");
    }

    @Test
    void memoryNeedsNoModule() {
        assertDoesNotThrow(() -> ClusterStores.require(ClusterSettings.MEMORY));
    }
}
