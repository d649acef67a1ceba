package dev.baton.impl.servlet;

import dev.baton.exception.FailoverDefinitionException;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EndpointSettingsTest {

    /** printf %s baton-demo-key | sha256sum */
    private static final String CHAT = "8c71decfc7ca7cd3c47e871174dad18b278d37f3316916b633ec983b5f618ad4";
    /** printf %s baton-demo-admin-key | sha256sum */
    private static final String ADMIN = HexFormat.of().formatHex(GatewayKeys.sha256("baton-demo-admin-key"));

    @Test
    void defaults() {
        EndpointSettings s = load(Map.of("baton.endpoint.enabled", "true"));
        assertTrue(s.adminKeyHashes().isEmpty(), "no operator endpoints unless asked for");
        assertEquals(Duration.ofHours(1), s.idempotencyTtl());
        assertEquals(10_000, s.idempotencyMaxEntries());
    }

    @Test
    void readsTheAdminKeyAndIdempotencyBounds() {
        EndpointSettings s = load(Map.of("baton.endpoint.api-key-sha256", CHAT,
                "baton.endpoint.admin-key-sha256", ADMIN.toUpperCase(),
                "baton.endpoint.idempotency-ttl", "10m",
                "baton.endpoint.idempotency-max-entries", "500"));
        assertEquals(1, s.adminKeyHashes().size());
        assertArrayEquals(HexFormat.of().parseHex(ADMIN), s.adminKeyHashes().get(0));
        assertEquals(Duration.ofMinutes(10), s.idempotencyTtl());
        assertEquals(500, s.idempotencyMaxEntries());
    }

    @Test
    void refusesTheSameKeyForChatAndAdmin() {
        String problems = problems(Map.of("baton.endpoint.api-key-sha256", CHAT + "," + ADMIN,
                "baton.endpoint.admin-key-sha256", ADMIN));
        assertTrue(problems.contains("baton.endpoint.admin-key-sha256: the admin key must differ"), problems);
    }

    @Test
    void namesEveryBadKeyWithoutEchoingAPastedKey() {
        String problems = problems(Map.of("baton.endpoint.admin-key-sha256", "baton-demo-admin-key",
                "baton.endpoint.idempotency-ttl", "forever",
                "baton.endpoint.idempotency-max-entries", "0"));
        assertTrue(problems.contains("baton.endpoint.admin-key-sha256: every entry must be 64 hex digits"), problems);
        assertFalse(problems.contains("baton-demo-admin-key"), problems);
        assertTrue(problems.contains("baton.endpoint.idempotency-ttl: 'forever' is not a duration"), problems);
        assertTrue(problems.contains("baton.endpoint.idempotency-max-entries: must be between 1 and 1000000"), problems);
    }

    @Test
    void boundsTheTtl() {
        assertTrue(problems(Map.of("baton.endpoint.idempotency-ttl", "8000h"))
                .contains("baton.endpoint.idempotency-ttl: must be between 1s and 7 days"));
        assertTrue(problems(Map.of("baton.endpoint.idempotency-ttl", "500ms"))
                .contains("baton.endpoint.idempotency-ttl: must be between 1s and 7 days"));
    }

    @Test
    void readsItsKeysFromEnvironmentVariablesWithoutTakingTheirNamesForKeys() {
        // SmallRye's environment source also lists baton.endpoint.api.key.sha256, which is no key.
        Config config = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new EnvConfigSource(Map.of("BATON_ENDPOINT_API_KEY_SHA256", CHAT,
                        "BATON_ENDPOINT_IDEMPOTENCY_TTL", "10m", "BATON_ENDPOINT_XMX", "2g"), 300)).build();
        EndpointSettings s = EndpointSettings.load(config);
        assertArrayEquals(HexFormat.of().parseHex(CHAT), s.keyHashes().get(0));
        assertEquals(Duration.ofMinutes(10), s.idempotencyTtl());

        Config bad = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new EnvConfigSource(Map.of("BATON_ENDPOINT_MAX_BODY_BYTES", "lots"), 300)).build();
        String problems = assertThrows(FailoverDefinitionException.class, () -> EndpointSettings.load(bad)).getMessage();
        assertTrue(problems.contains("baton.endpoint.max-body-bytes: 'lots' is not a whole number"), problems);
        assertFalse(problems.contains("unknown key"), problems);
    }

    @Test
    void anUnknownKeyInAPropertySourceIsStillRefused() {
        assertTrue(problems(Map.of("baton.endpoint.enabeld", "true")).contains("baton.endpoint.enabeld: unknown key"));
    }

    private static String problems(Map<String, String> props) {
        return assertThrows(FailoverDefinitionException.class, () -> load(props)).getMessage();
    }

    private static EndpointSettings load(Map<String, String> props) {
        Map<String, String> all = new HashMap<>(props);
        Config config = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(all, "test", 100)).build();
        return EndpointSettings.load(config);
    }
}
