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
        assertEquals(8, s.maxN());
        assertEquals(1_000_000, s.maxOutputTokens());
    }

    @Test
    void theConsoleIsOffUnlessAskedForAndNeedsTheAdminKey() {
        assertFalse(load(Map.of("baton.endpoint.admin-key-sha256", ADMIN)).console());
        assertTrue(load(Map.of("baton.endpoint.admin-key-sha256", ADMIN, "baton.endpoint.console.enabled", "true"))
                .console());
        String problems = problems(Map.of("baton.endpoint.console.enabled", "true"));
        assertTrue(problems.contains("baton.endpoint.console.enabled: the console needs the admin key; set "
                + "baton.endpoint.admin-key-sha256"), problems);
        assertTrue(problems(Map.of("baton.endpoint.console.enabled", "yes")).contains(
                "baton.endpoint.console.enabled: 'yes' is not true or false"));
    }

    @Test
    void readsTheRequestLimits() {
        EndpointSettings s = load(Map.of("baton.endpoint.limits.max-n", "2",
                "baton.endpoint.limits.max-output-tokens", "32000"));
        assertEquals(2, s.maxN());
        assertEquals(32_000, s.maxOutputTokens());
    }

    @Test
    void refusesBadRequestLimitsNamingTheKey() {
        String problems = problems(Map.of("baton.endpoint.limits.max-n", "0",
                "baton.endpoint.limits.max-output-tokens", "lots"));
        assertTrue(problems.contains("baton.endpoint.limits.max-n: must be between 1 and 128 but was 0"), problems);
        assertTrue(problems.contains("baton.endpoint.limits.max-output-tokens: 'lots' is not a whole number"), problems);
        assertTrue(problems(Map.of("baton.endpoint.limits.max-output-tokens", "-1"))
                .contains("baton.endpoint.limits.max-output-tokens: must be between 1 and 1000000000 but was -1"));
        assertTrue(problems(Map.of("baton.endpoint.limits.max-m", "2"))
                .contains("baton.endpoint.limits.max-m: unknown key"));
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

    @Test
    void readsNamedKeysWithTheirAllowlistsAndBudgets() {
        String teamA = HexFormat.of().formatHex(GatewayKeys.sha256("team-a-key"));
        String batch = HexFormat.of().formatHex(GatewayKeys.sha256("batch-key"));
        EndpointSettings s = load(Map.of("baton.endpoint.keys.team-a.sha256", teamA,
                "baton.endpoint.keys.team-a.allowed-models", "demo, gpt-5.4-mini",
                "baton.endpoint.keys.team-a.budget", "50/1d",
                "baton.endpoint.keys.batch_1.sha256", batch.toUpperCase()));

        assertTrue(s.keysRequired(), "a named key alone makes keys required");
        assertEquals(2, s.namedKeys().size());
        NamedKey a = s.namedKeys().stream().filter(k -> k.name().equals("team-a")).findFirst().orElseThrow();
        assertArrayEquals(HexFormat.of().parseHex(teamA), a.sha256());
        assertEquals(java.util.Set.of("demo", "gpt-5.4-mini"), a.allowedModels());
        assertEquals(Duration.ofDays(1), a.budget().period());
        assertTrue(a.allows("demo") && !a.allows("internal"));
        NamedKey b = s.namedKeys().stream().filter(k -> k.name().equals("batch_1")).findFirst().orElseThrow();
        assertTrue(b.allows("internal"), "no list: whatever the endpoint allows");
        assertEquals(null, b.budget());
    }

    @Test
    void refusesBadNamedKeysNamingTheKey() {
        String teamA = HexFormat.of().formatHex(GatewayKeys.sha256("team-a-key"));
        String problems = problems(Map.ofEntries(
                Map.entry("baton.endpoint.keys.team-a.sha256", teamA),
                Map.entry("baton.endpoint.keys.spendy.sha256", HexFormat.of().formatHex(GatewayKeys.sha256("s"))),
                Map.entry("baton.endpoint.keys.spendy.budget", "fifty a day"),
                Map.entry("baton.endpoint.keys.twin.sha256", teamA),
                Map.entry("baton.endpoint.keys.nodigest.budget", "5/1d"),
                Map.entry("baton.endpoint.keys.pasted.sha256", "sk-my-real-key"),
                Map.entry("baton.endpoint.keys.team-a.limit", "5"),
                Map.entry("baton.endpoint.api-key-sha256", CHAT),
                Map.entry("baton.endpoint.keys.old.sha256", CHAT),
                Map.entry("baton.endpoint.admin-key-sha256", ADMIN),
                Map.entry("baton.endpoint.keys.admin.sha256", ADMIN)));
        assertTrue(problems.contains("baton.endpoint.keys.spendy.budget: 'fifty a day' must be written <amount>/<period>"),
                problems);
        assertTrue(problems.contains("baton.endpoint.keys.twin.sha256: the same key as baton.endpoint.keys.team-a.sha256"),
                problems);
        assertTrue(problems.contains("baton.endpoint.keys.nodigest.sha256: required"), problems);
        assertTrue(problems.contains("baton.endpoint.keys.pasted.sha256: every entry must be 64 hex digits"), problems);
        assertFalse(problems.contains("sk-my-real-key"), problems);
        assertTrue(problems.contains("baton.endpoint.keys.team-a.limit: unknown key"), problems);
        assertTrue(problems.contains("baton.endpoint.keys.old.sha256: the same key is also listed in"
                + " baton.endpoint.api-key-sha256"), problems);
        assertTrue(problems.contains("baton.endpoint.keys.admin.sha256: the admin key must differ"), problems);
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
