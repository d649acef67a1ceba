package dev.baton.impl.cluster;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.ConfigLoader;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterSettingsTest {

    private static final String PASSWORD = "s3cret-redis-password";

    private static Config config(Map<String, String> props) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withSources(new PropertiesConfigSource(props, "test", 100)).build();
    }

    @Test
    void memoryByDefaultWithNothingToConfigure() {
        ClusterSettings s = ClusterSettings.read(config(Map.of()));
        assertFalse(s.redis());
        assertEquals(Duration.ofMillis(50), s.timeout());
        assertFalse(s.node().isBlank());
    }

    @Test
    void redisWithItsPasswordFromAnExpressionNeverShown() {
        ClusterSettings s = ClusterSettings.read(config(Map.of(
                "baton.cluster.store", "redis",
                "redis.password", PASSWORD,
                "baton.cluster.redis.url", "rediss://:${redis.password}@redis.example:6380/0",
                "baton.cluster.redis.key-prefix", "shop:",
                "baton.cluster.redis.timeout", "30ms",
                "baton.cluster.node", "pod-1")));
        assertTrue(s.redis());
        assertEquals("rediss://:" + PASSWORD + "@redis.example:6380/0", s.url(), "the expression is expanded");
        assertEquals("rediss://***@redis.example:6380/0", s.displayUrl());
        assertFalse(s.toString().contains(PASSWORD));
        assertEquals("shop:", s.keyPrefix());
        assertEquals(Duration.ofMillis(30), s.timeout());
        assertEquals("pod-1", s.node());
    }

    @Test
    void badValuesFailNamingEveryKeyAndNoPassword() {
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, () -> ClusterSettings.read(
                config(Map.of(
                        "baton.cluster.store", "redis",
                        "baton.cluster.redis.url", "http://user:" + PASSWORD + "@redis.example",
                        "baton.cluster.redis.timeout", "10s",
                        "baton.cluster.redis.key-prefix", "has space"))));
        assertTrue(e.getMessage().contains("baton.cluster.redis.url: must start with redis:// or rediss://"),
                e.getMessage());
        assertTrue(e.getMessage().contains("baton.cluster.redis.timeout: must be between"), e.getMessage());
        assertTrue(e.getMessage().contains("baton.cluster.redis.key-prefix"), e.getMessage());
        assertFalse(e.getMessage().contains(PASSWORD));
    }

    @Test
    void anUnsetVariableInTheUrlIsNamedWithoutTheRest() {
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, () -> ClusterSettings.read(
                new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(
                        "baton.cluster.store", "redis",
                        "baton.cluster.redis.url", "redis://:${REDIS_PASSWORD}@redis.example:6379"), "test", 100))
                        .build()));
        assertTrue(e.getMessage().contains("holds an expression that was not expanded"), e.getMessage());
    }

    @Test
    void aMissingVariableInTheUrlIsAConfigurationError() {
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, () -> ClusterSettings.read(
                config(Map.of("baton.cluster.store", "redis",
                        "baton.cluster.redis.url", "redis://:${BATON_TEST_UNSET_VARIABLE}@redis.example:6379"))));
        assertTrue(e.getMessage().contains("baton.cluster.redis.url: "), e.getMessage());
        assertTrue(e.getMessage().contains("a variable it names is not set"), e.getMessage());
    }

    @Test
    void theEngineConfigurationLeavesTheClusterKeysToThese() {
        Config config = config(Map.of(
                "baton.connections.a.provider", "openai",
                "baton.connections.a.base-url", "http://127.0.0.1:9/v1",
                "baton.connections.a.api-key", "sk-test-cluster-0123456789",
                "baton.connections.a.models", "m",
                "baton.cluster.store", "redis",
                "baton.cluster.redis.url", "redis://127.0.0.1:6379"));
        assertEquals(1, ConfigLoader.load(config, Adapters.discover()).connections().size());
        assertTrue(ClusterSettings.read(config).redis());
    }

    @Test
    void aMisspeltKeyIsRefused() {
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, () -> ClusterSettings.read(
                config(Map.of("baton.cluster.redis.timout", "20ms"))));
        assertTrue(e.getMessage().contains("baton.cluster.redis.timout: unknown key"), e.getMessage());
    }

    @Test
    void redisNeedsAUrlAndAKnownStore() {
        assertTrue(assertThrows(FailoverDefinitionException.class, () -> ClusterSettings.read(config(Map.of(
                "baton.cluster.store", "redis")))).getMessage().contains("baton.cluster.redis.url: required"));
        assertTrue(assertThrows(FailoverDefinitionException.class, () -> ClusterSettings.read(config(Map.of(
                "baton.cluster.store", "hazelcast")))).getMessage().contains("baton.cluster.store: must be memory or redis"));
    }
}
