package dev.baton.impl.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The balancing keys: {@code balance}, tiers and weights in {@code targets}, and {@code baton.balance.*}. */
class BalanceConfigTest {

    private static Map<String, String> config(String targets, String balance) {
        Map<String, String> m = new HashMap<>();
        for (String c : List.of("a", "b", "c")) {
            m.put("baton.connections." + c + ".provider", "openai");
            m.put("baton.connections." + c + ".base-url", "http://localhost:9/" + c);
            m.put("baton.connections." + c + ".models", "m, n");
        }
        m.put("baton.routes.chat.targets", targets);
        if (balance != null) {
            m.put("baton.routes.chat.balance", balance);
        }
        return m;
    }

    private static void assertContains(String message, String expected) {
        assertTrue(message.contains(expected), () -> "expected to find\n  " + expected + "\nin\n" + message);
    }

    @Test
    void tiersAndWeightsAreReadFromTargets() {
        RouteConfig route = ConfigLoaderTest.load(config("a/m weight=3, b/m  weight=1 | c/m, c/n", "weighted"))
                .routes().get("chat");
        assertEquals(Balance.WEIGHTED, route.policy().balance());
        assertEquals(List.of(new TargetRef("a", "m"), new TargetRef("b", "m"), new TargetRef("c", "m"),
                new TargetRef("c", "n")), route.targets());
        assertEquals(List.of(0, 0, 1, 1), route.targets().stream().map(route::tier).toList());
        assertEquals(List.of(3, 1, 1, 1), route.targets().stream().map(route::weight).toList());
    }

    @Test
    void priorityIsTheDefaultAndEveryStrategyIsReadByItsName() {
        assertEquals(Balance.PRIORITY, ConfigLoaderTest.load(config("a/m, b/m", null)).routes().get("chat").policy().balance());
        for (Balance b : Balance.values()) {
            assertEquals(b, ConfigLoaderTest.load(config("a/m, b/m", b.wireName())).routes().get("chat").policy().balance());
        }
        Map<String, String> m = config("a/m, b/m", null);
        m.put("baton.defaults.balance", "least-busy");
        BatonConfig loaded = ConfigLoaderTest.load(m);
        assertEquals(Balance.LEAST_BUSY, loaded.defaults().balance(), "requests naming a model balance too");
        assertEquals(Balance.LEAST_BUSY, loaded.routes().get("chat").policy().balance(), "a route inherits the default");
    }

    @Test
    void anUnknownStrategyIsRefusedNamingTheKey() {
        assertContains(ConfigLoaderTest.problems(config("a/m, b/m", "round-robin")),
                "baton.routes.chat.balance: 'round-robin' is not one of [priority, weighted, adaptive, least-busy, sticky]");
    }

    @Test
    void badWeightsAndTiersAreRefusedNamingTheKey() {
        assertContains(ConfigLoaderTest.problems(config("a/m weight=0, b/m", "weighted")),
                "baton.routes.chat.targets: 'a/m weight=0': the weight must be between 1 and 1000 but was 0");
        assertContains(ConfigLoaderTest.problems(config("a/m weight=x, b/m", "weighted")),
                "baton.routes.chat.targets: 'a/m weight=x': the weight 'x' is not a whole number");
        assertContains(ConfigLoaderTest.problems(config("a/m share=2, b/m", "weighted")),
                "baton.routes.chat.targets: 'a/m share=2': 'share=2' is not an attribute of a target");
        assertContains(ConfigLoaderTest.problems(config("a/m | | b/m", null)),
                "baton.routes.chat.targets: tier 2 of 'a/m | | b/m' names no target");
        assertContains(ConfigLoaderTest.problems(config("a/m | a/m", null)),
                "baton.routes.chat.targets: 'a/m' is listed twice");
    }

    @Test
    void weightsOnAStrategyThatIgnoresThemAreRefused() {
        assertContains(ConfigLoaderTest.problems(config("a/m weight=3, b/m", null)),
                "baton.routes.chat.targets: weights have no effect with balance=priority; set baton.routes.chat.balance"
                        + " to weighted, adaptive or sticky");
        assertContains(ConfigLoaderTest.problems(config("a/m weight=3, b/m", "least-busy")),
                "weights have no effect with balance=least-busy");
    }

    @Test
    void adaptiveSettingsHaveDefaultsAndAreRangeChecked() {
        assertEquals(BatonConfig.BalanceSettings.DEFAULT, ConfigLoaderTest.load(config("a/m", null)).balance());
        Map<String, String> m = config("a/m", null);
        m.put("baton.balance.interval", "5s");
        m.put("baton.balance.window", "30s");
        m.put("baton.balance.min-share", "10");
        assertEquals(new BatonConfig.BalanceSettings(Duration.ofSeconds(5), Duration.ofSeconds(30), 0.10),
                ConfigLoaderTest.load(m).balance());
        m.put("baton.balance.window", "2s");
        m.put("baton.balance.min-share", "0");
        String problems = ConfigLoaderTest.problems(m);
        assertContains(problems, "baton.balance.window: must be at least baton.balance.interval (5s) but was 2s");
        assertContains(problems, "baton.balance.min-share: must be between 1 and 50 but was 0");
    }
}
