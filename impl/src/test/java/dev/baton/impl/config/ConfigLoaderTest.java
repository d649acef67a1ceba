package dev.baton.impl.config;

import dev.baton.FailureAction;
import dev.baton.FailureKind;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.azure.AzureOpenAiAdapterFactory;
import dev.baton.impl.openai.OpenAiAdapterFactory;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;
import dev.baton.spi.ProviderTarget;
import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest {

    private static final List<ProviderAdapterFactory> PROVIDERS = List.of(new OpenAiAdapterFactory());
    private static final String PRIMARY_KEY = "sk-test-PRIMARY-9d8c7b6a5f4e";
    private static final String STANDBY_KEY = "sk-test-STANDBY-1a2b3c4d5e6f";

    /** A complete, valid configuration; tests copy it and break one thing. */
    private static Map<String, String> valid() {
        Map<String, String> m = new HashMap<>();
        m.put("baton.connections.openai-prod.provider", "openai");
        m.put("baton.connections.openai-prod.api-key", PRIMARY_KEY);
        m.put("baton.connections.openai-prod.models", "gpt-5.4-mini, gpt-5.4");
        m.put("baton.connections.openai-standby.provider", "openai");
        m.put("baton.connections.openai-standby.base-url", "https://standby.example.com/v1/");
        m.put("baton.connections.openai-standby.api-key", STANDBY_KEY);
        m.put("baton.connections.openai-standby.models", "gpt-5.4-mini");
        m.put("baton.connections.openai-standby.eject-after", "3");
        m.put("baton.connections.openai-standby.cool-off", "10s");
        m.put("baton.connections.openai-standby.max-cool-off", "5m");
        m.put("baton.connections.openai-standby.headers.OpenAI-Organization", "org-standby");
        m.put("baton.connections.local.provider", "openai");
        m.put("baton.connections.local.base-url", "http://localhost:8080/v1");
        m.put("baton.connections.local.models", "llama-3");
        m.put("baton.routes.support-drafts.targets", "openai-prod/gpt-5.4-mini, openai-standby/gpt-5.4-mini, local/llama-3");
        m.put("baton.routes.support-drafts.deadline", "20s");
        m.put("baton.routes.support-drafts.same-target-retries", "2");
        m.put("baton.routes.support-drafts.on.server_error", "failover");
        m.put("baton.routes.summaries.targets", "openai-prod/gpt-5.4");
        m.put("baton.defaults.attempt-timeout", "15s");
        m.put("baton.defaults.first-token-timeout", "PT5S");
        m.put("baton.defaults.on.spend_limit", "stop");
        m.put("baton.routes.support-drafts.max-wait", "500ms");
        m.put("baton.retry-budget.percent", "20");
        m.put("baton.records.capacity", "50");
        return m;
    }

    @Test
    void loadsAFullValidConfiguration() {
        BatonConfig config = load(valid());

        assertEquals(List.of("local", "openai-prod", "openai-standby"),
                config.connections().stream().map(ConnectionConfig::name).toList(), "discovered and sorted");
        ConnectionConfig prod = config.connection("openai-prod").orElseThrow();
        assertEquals(URI.create("https://api.openai.com/v1"), prod.baseUrl());
        assertEquals(PRIMARY_KEY, prod.apiKey());
        assertEquals(List.of("gpt-5.4-mini", "gpt-5.4"), prod.models());
        assertEquals(HealthPolicy.DEFAULT, prod.health());

        ConnectionConfig standby = config.connection("openai-standby").orElseThrow();
        assertEquals(URI.create("https://standby.example.com/v1"), standby.baseUrl(), "trailing slash removed");
        assertEquals(new HealthPolicy(3, 1, Duration.ofSeconds(10), Duration.ofMinutes(5)), standby.health());
        assertEquals(Map.of("OpenAI-Organization", "org-standby"), standby.headers());

        ConnectionConfig local = config.connection("local").orElseThrow();
        assertEquals("", local.apiKey(), "a loopback host needs no key");

        RouteConfig route = config.routes().get("support-drafts");
        assertEquals(List.of(new TargetRef("openai-prod", "gpt-5.4-mini"), new TargetRef("openai-standby", "gpt-5.4-mini"),
                new TargetRef("local", "llama-3")), route.targets());
        RoutePolicy p = route.policy();
        assertEquals(Duration.ofSeconds(20), p.deadline());
        assertEquals(Duration.ofSeconds(15), p.attemptTimeout(), "inherited from baton.defaults");
        assertEquals(Duration.ofSeconds(5), p.firstTokenTimeout(), "inherited from baton.defaults");
        assertEquals(Duration.ofSeconds(30), p.streamIdleTimeout());
        assertEquals(2, p.sameTargetRetries());
        assertEquals(FailureAction.FAILOVER, p.action(FailureKind.SERVER_ERROR));
        assertEquals(FailureAction.STOP, p.action(FailureKind.SPEND_LIMIT), "inherited from baton.defaults.on");
        assertEquals(Duration.ofMillis(500), p.maxWait());
        assertEquals(FailureAction.STOP, p.action(FailureKind.MODERATION));
        assertEquals(FailureAction.RETRY, p.action(FailureKind.CONNECTION));

        RoutePolicy summaries = config.routes().get("summaries").policy();
        assertEquals(Duration.ofSeconds(60), summaries.deadline());
        assertEquals(1, summaries.sameTargetRetries());
        assertEquals(Duration.ofSeconds(2), summaries.maxWait(), "the built-in max-wait");
        assertEquals(FailureAction.RETRY, summaries.action(FailureKind.SERVER_ERROR));

        RoutePolicy defaults = config.defaults();
        assertEquals(Duration.ofSeconds(60), defaults.deadline());
        assertEquals(Duration.ofSeconds(15), defaults.attemptTimeout());
        assertEquals(FailureAction.STOP, defaults.action(FailureKind.SPEND_LIMIT));
        assertEquals(FailureAction.FAILOVER, defaults.action(FailureKind.RATE_LIMIT));

        assertEquals(new BatonConfig.RetryBudgetConfig(20, 5, Duration.ofSeconds(10)), config.retryBudget());
        assertEquals(50, config.recordCapacity());
        assertEquals(8L * 1024 * 1024, config.maxResponseBytes());
        assertEquals(Duration.ofMinutes(10), config.maxStreamDuration());
    }

    @Test
    void anEmptyConfigurationLoadsWithDefaults() {
        BatonConfig config = load(Map.of());
        assertTrue(config.connections().isEmpty());
        assertEquals(RoutePolicy.DEFAULT, config.defaults());
        assertEquals(BatonConfig.RetryBudgetConfig.DEFAULT, config.retryBudget());
        assertEquals(1000, config.recordCapacity());
    }

    @Test
    void theExplicitConnectionListSetsTheOrder() {
        Map<String, String> m = valid();
        m.put("baton.connections", "openai-standby, openai-prod,local");
        assertEquals(List.of("openai-standby", "openai-prod", "local"),
                load(m).connections().stream().map(ConnectionConfig::name).toList());
    }

    @Test
    void namesListedExplicitlyAreReadEvenWhenNoPropertyNameRevealsThem() {
        // Environment variables cannot be turned back into dotted names; the explicit list is what finds them.
        Map<String, String> m = new HashMap<>();
        m.put("baton.connections", "openai-prod");
        m.put("baton.routes", "drafts");
        Config config = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(m, "listed", 100))
                .withSources(new HiddenNamesSource(Map.of(
                        "baton.connections.openai-prod.provider", "openai",
                        "baton.connections.openai-prod.api-key", PRIMARY_KEY,
                        "baton.connections.openai-prod.models", "gpt-5.4-mini",
                        "baton.routes.drafts.targets", "openai-prod/gpt-5.4-mini")))
                .build();
        BatonConfig loaded = ConfigLoader.load(config, PROVIDERS);
        assertEquals(List.of("openai-prod"), loaded.connections().stream().map(ConnectionConfig::name).toList());
        assertEquals(List.of(new TargetRef("openai-prod", "gpt-5.4-mini")), loaded.routes().get("drafts").targets());
    }

    @Test
    void anEnvironmentOnlyConfigurationWithExplicitListsLoads() {
        // SmallRye's EnvConfigSource also lists dotted guesses such as baton.routes.chat.on.spend.limit;
        // they must be neither refused as unknown keys nor discovered as names.
        Map<String, String> env = new HashMap<>();
        env.put("BATON_CONNECTIONS", "openai-prod");
        env.put("BATON_CONNECTIONS_OPENAI_PROD_PROVIDER", "openai");
        env.put("BATON_CONNECTIONS_OPENAI_PROD_API_KEY", PRIMARY_KEY);
        env.put("BATON_CONNECTIONS_OPENAI_PROD_MODELS", "gpt-5.4-mini");
        env.put("BATON_CONNECTIONS_OPENAI_PROD_COOL_OFF", "10s");
        env.put("BATON_ROUTES", "chat");
        env.put("BATON_ROUTES_CHAT_TARGETS", "openai-prod/gpt-5.4-mini");
        env.put("BATON_ROUTES_CHAT_ON_SPEND_LIMIT", "failover");
        env.put("BATON_DEFAULTS_DEADLINE", "45s");
        env.put("PATH", "/usr/bin");

        BatonConfig config = ConfigLoader.load(envConfig(Map.of(), env), PROVIDERS);

        assertEquals(List.of("openai-prod"), config.connections().stream().map(ConnectionConfig::name).toList());
        ConnectionConfig prod = config.connections().get(0);
        assertEquals(PRIMARY_KEY, prod.apiKey());
        assertEquals(Duration.ofSeconds(10), prod.health().coolOff());
        assertEquals(Map.of(), prod.headers());
        assertEquals(Set.of("chat"), config.routes().keySet());
        assertEquals(FailureAction.FAILOVER, config.routes().get("chat").policy().action(FailureKind.SPEND_LIMIT));
        assertEquals(Duration.ofSeconds(45), config.defaults().deadline());
    }

    @Test
    void environmentVariablesForAConnectionThatIsNotListedAreReported() {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_CONNECTIONS_OPENAI_PROD_PROVIDER", "openai");
        env.put("BATON_CONNECTIONS_OPENAI_PROD_API_KEY", PRIMARY_KEY);
        env.put("BATON_CONNECTIONS_OPENAI_PROD_MODELS", "gpt-5.4-mini");
        env.put("BATON_ROUTES_CHAT_TARGETS", "openai-prod/gpt-5.4-mini");

        String message = assertThrows(FailoverDefinitionException.class,
                () -> ConfigLoader.load(envConfig(Map.of(), env), PROVIDERS)).getMessage();

        assertContains(message, "BATON_CONNECTIONS_OPENAI_PROD_API_KEY, BATON_CONNECTIONS_OPENAI_PROD_MODELS, "
                + "BATON_CONNECTIONS_OPENAI_PROD_PROVIDER: no configured connection matches; names are not discovered "
                + "from environment variables, so list every name in baton.connections (BATON_CONNECTIONS)");
        assertContains(message, "BATON_ROUTES_CHAT_TARGETS: no configured route matches");
        assertFalse(message.contains("unknown key"), message);
        assertFalse(message.contains(PRIMARY_KEY), message);
    }

    /** Both ways SmallRye Config lists environment variables: today's, and older versions' (as WildFly's may be). */
    private static List<Config> envConfigs(Map<String, String> properties, Map<String, String> env) {
        return List.of(envConfig(properties, env), olderEnvConfig(properties, env));
    }

    @Test
    void strayBatonEnvironmentVariablesAreIgnoredAndLoggedOnceByName() {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_XMX", "2g-VALUE");
        env.put("BATON_HOME", "/opt/baton-VALUE");
        env.put("BATON_VERSION", "1.2-VALUE");
        env.put("BATON_CONNECTIONS_FILE", "/etc/conn-VALUE"); // no key of a connection ends so
        env.put("BATON_MODELS_DIR", "/models-VALUE");
        env.put("BATON_CONNECTIONS_OPENAI_PROD_MODLES", "gpt-VALUE"); // a typo for a listed connection sets nothing
        env.put("BATON_ROUTES_SUPPORT_DRAFTS_DEADLINE", "7s"); // read: not ignored
        env.put("BATON_RETRY_BUDGET_PERCENT", "30");
        env.put("PATH", "/usr/bin");
        for (Config config : envConfigs(valid(), env)) {
            List<LogRecord> logged = logged(() -> {
                BatonConfig loaded = ConfigLoader.load(config, PROVIDERS);
                assertEquals(Duration.ofSeconds(7), loaded.routes().get("support-drafts").policy().deadline());
                assertEquals(30, loaded.retryBudget().percent());
            });
            assertEquals(1, logged.size(), () -> logged.stream().map(LogRecord::getMessage).toList().toString());
            LogRecord record = logged.get(0);
            assertEquals(Level.WARNING, record.getLevel());
            assertContains(record.getMessage(), "Baton ignores these environment variables, which set no key it reads"
                    + " (see docs/configuration.md, Environment variables): BATON_CONNECTIONS_FILE,"
                    + " BATON_CONNECTIONS_OPENAI_PROD_MODLES, BATON_HOME, BATON_MODELS_DIR, BATON_VERSION, BATON_XMX");
            assertFalse(record.getMessage().contains("VALUE"), "names only: " + record.getMessage());
            assertFalse(record.getMessage().contains("DEADLINE"), record.getMessage());
        }
    }

    @Test
    void aStrayVariableDoesNotHideAProblemNorJoinIt() {
        for (Config config : envConfigs(Map.of("baton.connections.openai-prod.provider", "openai"),
                Map.of("BATON_XMX", "2g", "BATON_CONNECTIONS_OPENAI_PROD_MODELS", "gpt-5.4-mini"))) {
            String message = assertThrows(FailoverDefinitionException.class,
                    () -> ConfigLoader.load(config, PROVIDERS)).getMessage();
            assertContains(message, "baton.connections.openai-prod.api-key: required");
            assertFalse(message.contains("XMX") || message.contains("xmx"), message);
        }
    }

    @Test
    void anEnvironmentVariableForADocumentedKeyWithABadValueIsRefusedNamingTheKey() {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_CONNECTIONS", "primary");
        env.put("BATON_CONNECTIONS_PRIMARY_PROVIDER", "openai");
        env.put("BATON_CONNECTIONS_PRIMARY_API_KEY", PRIMARY_KEY);
        env.put("BATON_CONNECTIONS_PRIMARY_MODELS", "gpt-5.4-mini");
        env.put("BATON_CONNECTIONS_PRIMARY_COOL_OFF", "abc");
        env.put("BATON_RECORDS_CAPACITY", "many");
        env.put("BATON_XMX", "2g");
        for (Config config : envConfigs(Map.of(), env)) {
            String message = assertThrows(FailoverDefinitionException.class,
                    () -> ConfigLoader.load(config, PROVIDERS)).getMessage();
            assertContains(message, "baton.connections.primary.cool-off: 'abc' is not a duration");
            assertContains(message, "(from EnvConfigSource)");
            assertContains(message, "baton.records.capacity: 'many' is not a whole number");
            assertFalse(message.contains("unknown key"), message);
            assertFalse(message.contains(PRIMARY_KEY), message);
        }
    }

    @Test
    void unknownKeysFromPropertySourcesAreStillRefusedBesideEnvironmentVariables() {
        Map<String, String> m = valid();
        m.put("baton.xmx", "2g");
        m.put("baton.connections.openai-prod.cool.off", "10s");
        for (Config config : envConfigs(m, Map.of("BATON_XMX", "4g", "BATON_HOME", "/opt/baton"))) {
            String message = assertThrows(FailoverDefinitionException.class,
                    () -> ConfigLoader.load(config, PROVIDERS)).getMessage();
            assertContains(message, "baton.xmx: unknown key (see docs/configuration.md for the keys Baton reads)");
            assertContains(message, "baton.connections.openai-prod.cool.off: unknown key");
            assertFalse(message.contains("baton.home"), message);
        }
    }

    @Test
    void variablesShapedLikeAKeyOfAnUnlistedNameAreRefusedWithEitherNameListing() {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_CONNECTIONS_OPENAI_PROD_PROVIDER", "openai");
        env.put("BATON_CONNECTIONS_OPENAI_PROD_HEADERS_X_TRACE", "on");
        env.put("BATON_ROUTES_CHAT_ON_SPEND_LIMIT", "failover");
        env.put("BATON_MODELS_GPT_5_4_MINI_CONTEXT_WINDOW", "8192");
        env.put("BATON_CONNECTIONS_FILE", "/etc/connections");
        for (Config config : envConfigs(Map.of(), env)) {
            String message = assertThrows(FailoverDefinitionException.class,
                    () -> ConfigLoader.load(config, PROVIDERS)).getMessage();
            assertContains(message, "BATON_CONNECTIONS_OPENAI_PROD_HEADERS_X_TRACE, BATON_CONNECTIONS_OPENAI_PROD_PROVIDER:"
                    + " no configured connection matches");
            assertContains(message, "BATON_ROUTES_CHAT_ON_SPEND_LIMIT: no configured route matches");
            assertContains(message, "BATON_MODELS_GPT_5_4_MINI_CONTEXT_WINDOW: matches no baton.models.<model>.<attribute> key");
            assertFalse(message.contains("FILE"), message);
            assertFalse(message.contains("unknown key"), message);
        }
    }

    @Test
    void anEnvironmentVariableOverridesAKeyOfADiscoveredConnection() {
        BatonConfig config = ConfigLoader.load(envConfig(valid(),
                Map.of("BATON_CONNECTIONS_OPENAI_PROD_API_KEY", STANDBY_KEY,
                        "BATON_ROUTES_SUPPORT_DRAFTS_DEADLINE", "7s")), PROVIDERS);
        assertEquals(STANDBY_KEY, config.connection("openai-prod").orElseThrow().apiKey());
        assertEquals(Duration.ofSeconds(7), config.routes().get("support-drafts").policy().deadline());
    }

    @Test
    void missingProviderModelsAndApiKeyAreEachReported() {
        String message = problems(Map.of("baton.connections.x.base-url", "https://llm.example.com/v1"));
        assertAll(
                () -> assertContains(message, "baton.connections.x.provider: required"),
                () -> assertContains(message, "baton.connections.x.models: required"),
                () -> assertContains(message, "baton.connections.x.api-key: required (only a loopback base-url may go without a key)"));
    }

    @Test
    void aMissingProviderIsNotAlsoReportedAsAMissingBaseUrl() {
        String message = problems(Map.of("baton.connections.x.models", "m", "baton.connections.x.api-key", PRIMARY_KEY));
        assertContains(message, "baton.connections.x.provider: required");
        assertFalse(message.contains("base-url"), message);
    }

    @Test
    void anApiKeyIsRequiredUnlessTheBaseUrlIsLoopback() {
        Map<String, String> m = valid();
        m.remove("baton.connections.openai-prod.api-key");
        assertContains(problems(m), "baton.connections.openai-prod.api-key: required");

        for (String loopback : List.of("http://localhost:11434/v1", "http://127.0.0.1:8080/v1", "http://[::1]:8080/v1")) {
            m.put("baton.connections.openai-prod.base-url", loopback);
            assertEquals("", load(m).connection("openai-prod").orElseThrow().apiKey(), loopback);
        }
    }

    @Test
    void anUnknownProviderIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.provider", "anthropic");
        String message = problems(m);
        assertContains(message, "baton.connections.openai-prod.provider: 'anthropic' is not a known provider; expected one of [openai]");
    }

    @Test
    void plainHttpToANonLoopbackHostIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-standby.base-url", "http://standby.example.com/v1");
        assertContains(problems(m), "baton.connections.openai-standby.base-url: 'http://standby.example.com/v1' must use https");
    }

    @Test
    void aBaseUrlWithAQueryOrUserInfoIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-standby.base-url", "https://user:pw@standby.example.com/v1");
        String message = problems(m);
        assertContains(message, "baton.connections.openai-standby.base-url");
        assertFalse(message.contains("user:pw"), message);
    }

    @Test
    void anUnknownKeyIsRefusedNamingTheKey() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.modles", "gpt-5.4");
        m.put("baton.routes.support-drafts.dedline", "5s");
        m.put("baton.retry-budget.percnt", "5");
        String message = problems(m);
        assertAll(
                () -> assertContains(message, "baton.connections.openai-prod.modles: unknown key"),
                () -> assertContains(message, "baton.routes.support-drafts.dedline: unknown key"),
                () -> assertContains(message, "baton.retry-budget.percnt: unknown key"));
    }

    @Test
    void aDurationWithoutAUnitIsRefusedNamingTheKeyAndValue() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.deadline", "30");
        assertContains(problems(m), "baton.routes.support-drafts.deadline: '30' is not a duration; write it as 250ms, 30s, 2m, 1h or PT30S");
    }

    @Test
    void aDurationThatIsNotANumberIsRefusedNamingTheKeyAndValue() {
        Map<String, String> m = valid();
        m.put("baton.defaults.attempt-timeout", "abc");
        assertContains(problems(m), "baton.defaults.attempt-timeout: 'abc' is not a duration");
    }

    @Test
    void anOverflowingDurationIsRefusedNamingTheKey() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.deadline", "9999999999999999h");
        m.put("baton.routes.support-drafts.attempt-timeout", "99999999999999999999s");
        String message = problems(m);
        assertContains(message, "baton.routes.support-drafts.deadline: '9999999999999999h'");
        assertContains(message, "baton.routes.support-drafts.attempt-timeout:");
    }

    @Test
    void fourSameTargetRetriesAreOutOfRange() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.same-target-retries", "4");
        assertContains(problems(m), "baton.routes.support-drafts.same-target-retries: must be between 0 and 3 but was 4");
        m.put("baton.routes.support-drafts.same-target-retries", "3");
        assertEquals(3, load(m).routes().get("support-drafts").policy().sameTargetRetries());
    }

    @Test
    void routeAndConnectionBudgetsAreReadAndABadOneIsRefusedNamingTheKey() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.budget", "200/1d");
        m.put("baton.connections.openai-prod.budget", "1000/30d");
        m.put("baton.budgets.default-output-tokens", "4096");
        m.put("baton.budgets.input-bytes-per-token", "4");
        BatonConfig config = load(m);
        assertEquals(Budget.parse("200/1d"), config.budgets().routes().get("support-drafts"));
        assertEquals(Budget.parse("1000/30d"), config.budgets().connections().get("openai-prod"));
        assertEquals(4096, config.budgets().defaultOutputTokens());
        assertEquals(4, config.budgets().inputBytesPerToken());

        m.put("baton.routes.support-drafts.budget", "lots");
        m.put("baton.connections.openai-prod.budget", "5/1s");
        m.put("baton.budgets.default-output-tokens", "0");
        m.put("baton.budgets.input-bytes-per-token", "9");
        String problems = problems(m);
        assertContains(problems, "baton.routes.support-drafts.budget: 'lots' must be written <amount>/<period>");
        assertContains(problems, "baton.connections.openai-prod.budget: the period must be between 1m and 366d but was 1s");
        assertContains(problems, "baton.budgets.default-output-tokens: must be between 1 and 10000000 but was 0");
        assertContains(problems, "baton.budgets.input-bytes-per-token: must be between 1 and 8 but was 9");
    }

    @Test
    void maxWaitIsBetweenZeroAndOneMinute() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.max-wait", "2m");
        m.put("baton.defaults.max-wait", "soon");
        String problems = problems(m);
        assertContains(problems, "baton.routes.support-drafts.max-wait: ");
        assertContains(problems, "baton.defaults.max-wait: 'soon'");
        m.put("baton.routes.support-drafts.max-wait", "0s");
        m.remove("baton.defaults.max-wait");
        assertEquals(Duration.ZERO, load(m).routes().get("support-drafts").policy().maxWait());
    }

    @Test
    void retryIsRefusedForATimeout() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.on.timeout", "retry");
        assertContains(problems(m), "baton.routes.support-drafts.on.timeout: 'retry' is not allowed");
    }

    @Test
    void retryIsRefusedForEveryKindASecondTryCannotCure() {
        for (String kind : List.of("timeout", "spend_limit", "credential", "moderation", "invalid_request", "model_not_served")) {
            Map<String, String> m = valid();
            m.put("baton.defaults.on." + kind, "retry");
            assertContains(problems(m), "baton.defaults.on." + kind + ": 'retry' is not allowed");
        }
    }

    @Test
    void anUnknownActionIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.on.server_error", "later");
        assertContains(problems(m), "baton.routes.support-drafts.on.server_error: 'later' is not one of [retry, failover, stop]");
    }

    @Test
    void anUnknownFailureKindIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.on.rate_limted", "failover");
        assertContains(problems(m), "baton.routes.support-drafts.on.rate_limted: 'rate_limted' is not a failure kind");
    }

    @Test
    void aRouteTargetNamingAnUnknownConnectionIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.targets", "openai-prod/gpt-5.4-mini, openai-backup/gpt-5.4-mini");
        assertContains(problems(m), "baton.routes.support-drafts.targets: 'openai-backup/gpt-5.4-mini' names the connection 'openai-backup'");
    }

    @Test
    void aRouteTargetNamingAModelTheConnectionDoesNotListIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.targets", "openai-standby/gpt-5.4");
        assertContains(problems(m), "baton.routes.support-drafts.targets: 'openai-standby/gpt-5.4' names the model 'gpt-5.4', "
                + "which the connection 'openai-standby' does not serve: it is not in its models [gpt-5.4-mini]");
    }

    @Test
    void aRouteTargetWithoutASlashIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.targets", "gpt-5.4-mini");
        assertContains(problems(m), "'gpt-5.4-mini' must be written connection/model");
    }

    @Test
    void aRouteWithoutTargetsIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.routes.empty.deadline", "5s");
        assertContains(problems(m), "baton.routes.empty.targets: required");
    }

    @Test
    void maxCoolOffBelowCoolOffIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-standby.max-cool-off", "5s");
        assertContains(problems(m), "baton.connections.openai-standby.max-cool-off: must be >= cool-off (10s) but was 5s");
    }

    @Test
    void probingIsReadPerConnectionWithBackgroundProbesByDefault() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.probe", "request");
        m.put("baton.connections.openai-standby.probe-interval", "2s");
        m.put("baton.connections.openai-standby.max-probe-interval", "1m");
        BatonConfig config = load(m);
        HealthPolicy prod = health(config, "openai-prod");
        HealthPolicy standby = health(config, "openai-standby");
        assertEquals(HealthPolicy.Probe.REQUEST, prod.probe());
        assertEquals(HealthPolicy.Probe.BACKGROUND, standby.probe());
        assertEquals(Duration.ofSeconds(2), standby.probeInterval());
        assertEquals(Duration.ofMinutes(1), standby.maxProbeInterval());
    }

    private static HealthPolicy health(BatonConfig config, String connection) {
        return config.connections().stream().filter(c -> c.name().equals(connection)).findFirst().orElseThrow().health();
    }

    @Test
    void badProbeSettingsAreRefusedNamingTheKey() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.probe", "sometimes");
        m.put("baton.connections.openai-standby.probe-interval", "1m");
        m.put("baton.connections.openai-standby.max-probe-interval", "30s");
        String problems = problems(m);
        assertContains(problems, "baton.connections.openai-prod.probe: 'sometimes' is not one of [background, request]");
        assertContains(problems,
                "baton.connections.openai-standby.max-probe-interval: must be >= probe-interval (60s) but was 30s");
    }

    @Test
    void theRetiredHttpClientKeyPassesOnlyAsNettyAndOtherwiseFailsDeploymentNamingTheKey() {
        Map<String, String> m = valid();
        m.put("baton.http.client", " Netty ");
        assertDoesNotThrow(() -> load(m));
        m.put("baton.http.client", "httpclient5");
        assertContains(problems(m),
                "baton.http.client: Baton now speaks HTTP with Netty only; remove the key (it was 'httpclient5')");
    }

    @Test
    void severalProblemsAreReportedTogether() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.modles", "gpt-5.4");
        m.put("baton.routes.support-drafts.deadline", "30");
        m.put("baton.routes.support-drafts.same-target-retries", "4");
        m.put("baton.routes.support-drafts.on.timeout", "retry");
        m.put("baton.connections.openai-standby.base-url", "http://standby.example.com/v1");
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, () -> load(m));
        String message = e.getMessage();
        assertTrue(message.startsWith("Baton configuration is invalid:"), message);
        assertAll(
                () -> assertContains(message, "baton.connections.openai-prod.modles"),
                () -> assertContains(message, "baton.routes.support-drafts.deadline"),
                () -> assertContains(message, "baton.routes.support-drafts.same-target-retries"),
                () -> assertContains(message, "baton.routes.support-drafts.on.timeout"),
                () -> assertContains(message, "baton.connections.openai-standby.base-url"));
        assertTrue(message.split("\n  - ").length - 1 >= 5, message);
    }

    @Test
    void problemsNameTheConfigSource() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.deadline", "30");
        assertContains(problems(m), "(from PropertiesConfigSource[source=test])");
    }

    @Test
    void theApiKeyNeverAppearsInAnyErrorMessage() {
        String distinctive = "sk-test-DISTINCTIVE-4f9e2b7c1a0d";
        Map<String, String> m = new HashMap<>();
        m.put("baton.connections.x.provider", "not-a-provider");
        m.put("baton.connections.x.api-key", distinctive);
        m.put("baton.connections.x.api_key", distinctive);          // a misspelt key still holds the secret
        m.put("baton.connections.x.headers.Authorization", "Bearer " + distinctive + "\r\nX-Injected: 1");
        m.put("baton.connections.x.base-url", "http://api.example.com/v1");
        m.put("baton.connections.x.eject-after", "0");
        m.put("baton.routes.r.targets", "x/gpt-5.4-mini");
        String message = problems(m);
        assertContains(message, "baton.connections.x.api_key: unknown key");
        assertContains(message, "baton.connections.x.headers.Authorization");
        assertFalse(message.contains("DISTINCTIVE"), message);
    }

    @Test
    void anUnresolvedEnvironmentVariableInTheApiKeyIsReportedWithoutTheValue() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.api-key", "sk-test-PREFIX-77aa${BATON_TEST_MISSING_ENV_3f1c}");
        String message = problems(m);
        assertContains(message, "baton.connections.openai-prod.api-key: cannot be read (is the environment variable it refers to set?)");
        assertFalse(message.contains("sk-test-PREFIX"), message);
    }

    @Test
    void anUnresolvedExpressionInAnApiKeyIsReportedOnceEvenForALoopbackHost() {
        Map<String, String> m = valid();
        m.put("baton.connections.local.api-key", "${BATON_TEST_MISSING_ENV_3f1c}");
        String message = problems(m);
        assertContains(message, "baton.connections.local.api-key: cannot be read");
        assertEquals(1, message.split("api-key", -1).length - 1, "one problem for the key, not also 'required': " + message);
    }

    @Test
    void anExpressionWithAnExplicitEmptyDefaultIsNotAProblem() {
        Map<String, String> m = valid();
        m.put("baton.connections.local.api-key", "${BATON_TEST_MISSING_ENV_3f1c:}");
        assertEquals("", load(m).connection("local").orElseThrow().apiKey());
    }

    @Test
    void anUnresolvedExpressionInAnyOtherKeyIsReportedInsteadOfFallingBackToTheDefault() {
        Map<String, String> m = valid();
        m.put("baton.routes.support-drafts.deadline", "${BATON_TEST_MISSING_DEADLINE}");
        m.put("baton.connections.openai-prod.provider", "${BATON_TEST_MISSING_PROVIDER}");
        String message = problems(m);
        assertContains(message, "baton.routes.support-drafts.deadline: cannot be read");
        assertContains(message, "baton.connections.openai-prod.provider: cannot be read");
        assertFalse(message.contains("provider: required"), message);
    }

    @Test
    void anInvalidNameInTheExplicitListIsRefused() {
        Map<String, String> m = valid();
        m.put("baton.connections", "openai-prod, bad name!");
        assertContains(problems(m), "baton.connections: the name 'bad name!' may only contain letters, digits, '-' and '_'");
    }

    @Test
    void globalLimitsAreRangeChecked() {
        Map<String, String> m = valid();
        m.put("baton.retry-budget.percent", "150");
        m.put("baton.retry-budget.window", "2m");
        m.put("baton.records.capacity", "many");
        m.put("baton.limits.max-response-bytes", "10");
        String message = problems(m);
        assertAll(
                () -> assertContains(message, "baton.retry-budget.percent: must be between 0 and 100 but was 150"),
                () -> assertContains(message, "baton.retry-budget.window: must be between 1s and 60s but was 2m"),
                () -> assertContains(message, "baton.records.capacity: 'many' is not a whole number"),
                () -> assertContains(message, "baton.limits.max-response-bytes: must be between 1024 and"));
    }

    // ---------------------------------------------------------------- azure-openai, alternate hosts

    private static final List<ProviderAdapterFactory> WITH_AZURE = List.of(new OpenAiAdapterFactory(),
            new AzureOpenAiAdapterFactory());

    private static Map<String, String> azure() {
        Map<String, String> m = new HashMap<>();
        m.put("baton.connections.az.provider", "azure-openai");
        m.put("baton.connections.az.base-url", "https://my-resource.openai.azure.com/");
        m.put("baton.connections.az.api-key", PRIMARY_KEY);
        m.put("baton.connections.az.api-version", "2024-10-21");
        m.put("baton.connections.az.models", "gpt-4o, gpt-4o-mini");
        m.put("baton.connections.az.deployments.gpt-4o", "chat-prod");
        return m;
    }

    private static String azureProblems(Map<String, String> properties) {
        return assertThrows(FailoverDefinitionException.class,
                () -> ConfigLoader.load(config(properties), WITH_AZURE)).getMessage();
    }

    @Test
    void loadsAnAzureConnectionWithDeploymentsAndApiVersion() {
        ConnectionConfig az = ConfigLoader.load(config(azure()), WITH_AZURE).connection("az").orElseThrow();

        assertEquals(URI.create("https://my-resource.openai.azure.com"), az.baseUrl());
        assertEquals(Map.of("api-version", "2024-10-21"), az.settings());
        assertEquals(Map.of("gpt-4o", Map.of("deployment", "chat-prod")), az.modelSettings());
        assertEquals(Map.of("api-version", "2024-10-21", "deployment", "chat-prod"), az.settings("gpt-4o"));
        assertEquals(Map.of("api-version", "2024-10-21"), az.settings("gpt-4o-mini"), "default: named like the model");
    }

    @Test
    void azureNeedsABaseUrlAndAnApiVersion() {
        Map<String, String> m = azure();
        m.remove("baton.connections.az.base-url");
        m.remove("baton.connections.az.api-version");
        String message = azureProblems(m);
        assertContains(message, "baton.connections.az.base-url: required for provider 'azure-openai'");
        assertContains(message, "baton.connections.az.api-version: required");
    }

    @Test
    void refusesABadApiVersionAndBadDeployments() {
        Map<String, String> m = azure();
        m.put("baton.connections.az.api-version", "latest");
        m.put("baton.connections.az.deployments.gpt-5", "other");
        m.put("baton.connections.az.deployments.gpt-4o-mini", "a/b");
        String message = azureProblems(m);
        assertContains(message, "baton.connections.az.api-version: 'latest' is not an Azure OpenAI API version");
        assertContains(message, "baton.connections.az.deployments.gpt-5: the model 'gpt-5' is not in"
                + " baton.connections.az.models");
        assertContains(message, "baton.connections.az.deployments.gpt-4o-mini: 'a/b' is not a deployment name");
    }

    @Test
    void refusesAzureKeysOnOtherProviders() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-prod.api-version", "2024-10-21");
        m.put("baton.connections.openai-prod.deployments.gpt-5.4", "x");
        String message = azureProblems(m);
        assertContains(message, "baton.connections.openai-prod.api-version: only read for provider 'azure-openai',"
                + " not 'openai'");
        assertContains(message, "baton.connections.openai-prod.deployments.gpt-5.4: deployments are only read for"
                + " provider 'azure-openai'");
    }

    /** A provider declaring only keys, for the loader: it is never asked for an adapter. */
    private record Declaring(String id, Set<ConnectionKey> connectionKeys) implements ProviderAdapterFactory {

        @Override
        public ProviderAdapter create(AdapterContext context) {
            throw new AssertionError("the loader never creates adapters");
        }
    }

    @Test
    void aProviderMayNotDeclareAKeyEveryConnectionHas() {
        List<ProviderAdapterFactory> providers = List.of(new OpenAiAdapterFactory(),
                new Declaring("odd", Set.of(ConnectionKey.optional("models"))));

        String message = assertThrows(FailoverDefinitionException.class,
                () -> ConfigLoader.load(config(valid()), providers)).getMessage();

        assertContains(message, "provider 'odd' (" + Declaring.class.getName()
                + ") declares the connection key 'models', which every connection has");
    }

    @Test
    void aDeclaredSecretIsNeverShownInAnErrorNorByItsTarget() {
        List<ProviderAdapterFactory> providers = List.of(new OpenAiAdapterFactory(), new Declaring("signed",
                Set.of(ConnectionKey.required("signing-secret").withFormat("[a-f0-9]{32}", "32 hex digits").asSecret())));
        Map<String, String> m = valid();
        m.put("baton.connections.s.provider", "signed");
        m.put("baton.connections.s.base-url", "http://127.0.0.1:1/v1");
        m.put("baton.connections.s.models", "m1");
        m.put("baton.connections.s.signing-secret", "Not-Hex-But-Still-A-Secret-Value");

        String message = assertThrows(FailoverDefinitionException.class,
                () -> ConfigLoader.load(config(m), providers)).getMessage();
        assertContains(message, "baton.connections.s.signing-secret: '<redacted>' is not 32 hex digits");
        assertFalse(message.contains("Not-Hex-But-Still"), message);

        m.put("baton.connections.s.signing-secret", "0123456789abcdef0123456789abcdef");
        ConnectionConfig s = ConfigLoader.load(config(m), providers).connection("s").orElseThrow();
        assertEquals("0123456789abcdef0123456789abcdef", s.settings("m1").get("signing-secret"));
        ProviderTarget target = new ProviderTarget("s", "signed", URI.create("http://127.0.0.1:1/v1"), "", "m1",
                Map.of(), List.of(), s.settings("m1"));
        assertFalse(target.toString().contains("0123456789abcdef"), target.toString());
        String provider = "rejected signature 0123456789abcdef0123456789abcdef";
        assertEquals("rejected signature <redacted>", Redactor.forConnections(List.of(s)).clean(provider),
                "provider text echoing a secret setting is redacted like an api-key");
    }

    @Test
    void aRequiredPerModelOrFormattedKeyOfAnyProviderIsCheckedFromItsDeclaration() {
        List<ProviderAdapterFactory> providers = List.of(new OpenAiAdapterFactory(), new Declaring("regional",
                Set.of(ConnectionKey.required("region").withFormat("[a-z]{2}-[a-z]+-\\d", "a region such as eu-west-1"),
                        ConnectionKey.perModel("aliases", "alias"))));
        Map<String, String> m = valid();
        m.put("baton.connections.r.provider", "regional");
        m.put("baton.connections.r.base-url", "http://127.0.0.1:1/v1");
        m.put("baton.connections.r.models", "m1, m2");
        m.put("baton.connections.r.aliases.m1", "first");
        assertContains(assertThrows(FailoverDefinitionException.class,
                () -> ConfigLoader.load(config(m), providers)).getMessage(), "baton.connections.r.region: required");

        m.put("baton.connections.r.region", "Europe");
        m.put("baton.connections.r.aliases.m3", "third");
        String message = assertThrows(FailoverDefinitionException.class,
                () -> ConfigLoader.load(config(m), providers)).getMessage();
        assertContains(message, "baton.connections.r.region: 'Europe' is not a region such as eu-west-1");
        assertContains(message, "baton.connections.r.aliases.m3: the model 'm3' is not in baton.connections.r.models");

        m.put("baton.connections.r.region", "eu-west-1");
        m.remove("baton.connections.r.aliases.m3");
        ConnectionConfig r = ConfigLoader.load(config(m), providers).connection("r").orElseThrow();
        assertEquals(Map.of("region", "eu-west-1", "alias", "first"), r.settings("m1"));
        assertEquals(Map.of("region", "eu-west-1"), r.settings("m2"));
    }

    @Test
    void loadsAlternateBaseUrls() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-standby.alternate-base-urls",
                "https://standby-eu.example.com/v1/, http://127.0.0.1:9000/v1");
        ConnectionConfig standby = load(m).connection("openai-standby").orElseThrow();
        assertEquals(List.of(URI.create("https://standby-eu.example.com/v1"), URI.create("http://127.0.0.1:9000/v1")),
                standby.alternateBaseUrls());
        assertEquals(List.of(), load(valid()).connection("openai-prod").orElseThrow().alternateBaseUrls());
    }

    @Test
    void alternateBaseUrlsFollowTheBaseUrlRules() {
        Map<String, String> m = valid();
        m.put("baton.connections.openai-standby.alternate-base-urls",
                "http://standby-eu.example.com/v1, https://standby.example.com/v1");
        m.put("baton.connections.local.alternate-base-urls", "https://remote.example.com/v1");
        String message = problems(m);
        assertContains(message, "baton.connections.openai-standby.alternate-base-urls: 'http://standby-eu.example.com/v1'"
                + " must use https");
        assertContains(message, "baton.connections.openai-standby.alternate-base-urls: 'https://standby.example.com/v1'"
                + " is listed twice");
        assertContains(message, "baton.connections.local.api-key: required");
    }

    static BatonConfig load(Map<String, String> properties) {
        return ConfigLoader.load(config(properties), PROVIDERS);
    }

    static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }

    /** Properties (ordinal 100) and SmallRye's real environment-variable source (ordinal 300) over the given map. */
    static Config envConfig(Map<String, String> properties, Map<String, String> env) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .withSources(new io.smallrye.config.EnvConfigSource(env, 300)).build();
    }

    /**
     * Like {@link #envConfig}, but the environment's dotted guesses are listed by the config and by no source, as
     * older SmallRye Config versions do (their {@code PropertyNamesConfigSourceInterceptor}): {@code BATON_XMX}
     * shows as {@code baton.xmx}, unless some listed name already has that environment form.
     */
    static Config olderEnvConfig(Map<String, String> properties, Map<String, String> env) {
        ConfigSourceInterceptor dottedNames = new ConfigSourceInterceptor() {
            @Override
            public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
                return context.proceed(name);
            }

            @Override
            public Iterator<String> iterateNames(ConfigSourceInterceptorContext context) {
                Set<String> names = new HashSet<>();
                context.iterateNames().forEachRemaining(names::add);
                Set<String> forms = new HashSet<>();
                names.stream().filter(n -> !env.containsKey(n)).forEach(n -> forms.add(ConfigLoader.environmentForm(n)));
                for (String name : env.keySet()) {
                    if (!forms.contains(name)) {
                        names.add(name.toLowerCase(Locale.ROOT).replace('_', '.'));
                    }
                }
                return names.iterator();
            }
        };
        return new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .withSources(new OlderEnvSource(env))
                .withInterceptors(dottedNames).build();
    }

    /** SmallRye's environment source, listing only the variables' own names. */
    private static final class OlderEnvSource implements org.eclipse.microprofile.config.spi.ConfigSource {
        private final io.smallrye.config.EnvConfigSource env;
        private final Set<String> names;

        OlderEnvSource(Map<String, String> env) {
            this.env = new io.smallrye.config.EnvConfigSource(env, 300);
            this.names = Set.copyOf(env.keySet());
        }

        @Override
        public Set<String> getPropertyNames() {
            return names;
        }

        @Override
        public String getValue(String name) {
            return env.getValue(name);
        }

        @Override
        public String getName() {
            return "EnvConfigSource";
        }

        @Override
        public int getOrdinal() {
            return 300;
        }
    }

    /** What {@link ConfigLoader} logs while {@code action} runs. */
    private static List<LogRecord> logged(Runnable action) {
        Logger logger = Logger.getLogger(ConfigLoader.class.getName());
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            action.run();
        } finally {
            logger.removeHandler(handler);
        }
        return records;
    }

    static String problems(Map<String, String> properties) {
        return assertThrows(FailoverDefinitionException.class, () -> load(properties)).getMessage();
    }

    private static void assertContains(String message, String expected) {
        assertTrue(message.contains(expected), () -> "expected to find\n  " + expected + "\nin\n" + message);
    }

    /** Answers lookups but lists no property names, the way environment variables behave for dotted names. */
    private static final class HiddenNamesSource implements org.eclipse.microprofile.config.spi.ConfigSource {
        private final Map<String, String> values;

        HiddenNamesSource(Map<String, String> values) {
            this.values = values;
        }

        @Override
        public Set<String> getPropertyNames() {
            return Set.of();
        }

        @Override
        public String getValue(String name) {
            return values.get(name);
        }

        @Override
        public String getName() {
            return "hidden";
        }

        @Override
        public int getOrdinal() {
            return 300;
        }
    }
}
