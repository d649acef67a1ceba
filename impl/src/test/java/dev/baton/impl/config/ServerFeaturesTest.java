package dev.baton.impl.config;

import dev.baton.exception.FailoverDefinitionException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerFeaturesTest {

    /** What an application sees on a server without MicroProfile Fault Tolerance: none of its API. */
    private static final ClassLoader WITHOUT_FAULT_TOLERANCE = new ClassLoader(null) {
    };
    /** The test class path holds the MicroProfile Fault Tolerance API, as a server with the feature on does. */
    private static final ClassLoader WITH_FAULT_TOLERANCE = ServerFeaturesTest.class.getClassLoader();

    private static Map<String, String> twoConnections() {
        Map<String, String> m = new HashMap<>();
        for (String name : new String[] {"primary", "standby"}) {
            m.put("baton.connections." + name + ".provider", "openai");
            m.put("baton.connections." + name + ".base-url", "http://127.0.0.1:8089/" + name + "/v1");
            m.put("baton.connections." + name + ".models", "gpt-5.4-mini");
        }
        m.put("baton.routes.chat.targets", "primary/gpt-5.4-mini, standby/gpt-5.4-mini");
        return m;
    }

    @Test
    void maxConcurrentWithoutFaultToleranceIsRefusedNamingTheKeyAndTheFeature() {
        Map<String, String> m = twoConnections();
        m.put("baton.connections.standby.max-concurrent", "20");
        BatonConfig config = ConfigLoaderTest.load(m);

        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class,
                () -> ServerFeatures.require(config, WITHOUT_FAULT_TOLERANCE));

        String message = e.getMessage();
        assertTrue(message.contains("baton.connections.standby.max-concurrent needs MicroProfile Fault Tolerance"),
                message);
        assertTrue(message.contains("mpFaultTolerance-4.1"), message);
        assertTrue(message.contains("microprofile-fault-tolerance-smallrye"), message);
        assertFalse(message.contains("baton.connections.primary"), "only the connection that uses it: " + message);
    }

    @Test
    void everyKeyThatNeedsFaultToleranceIsListed() {
        Map<String, String> m = twoConnections();
        m.put("baton.connections.primary.max-concurrent", "5");
        m.put("baton.connections.primary.rate-limit", "60/1m");
        m.put("baton.connections.standby.rate-limit", "10/1s");

        var problems = ServerFeatures.problems(ConfigLoaderTest.load(m).connections(), WITHOUT_FAULT_TOLERANCE);

        assertEquals(3, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("baton.connections.primary.max-concurrent needs "), problems::toString);
        assertTrue(problems.get(1).startsWith("baton.connections.primary.rate-limit needs "), problems::toString);
        assertTrue(problems.get(2).startsWith("baton.connections.standby.rate-limit needs "), problems::toString);
    }

    @Test
    void limitsAreAcceptedWhenTheServerOffersFaultTolerance() {
        Map<String, String> m = twoConnections();
        m.put("baton.connections.primary.max-concurrent", "5");
        m.put("baton.connections.primary.rate-limit", "60/1m");

        assertDoesNotThrow(() -> ServerFeatures.require(ConfigLoaderTest.load(m), WITH_FAULT_TOLERANCE));
    }

    @Test
    void withoutLimitsFaultToleranceIsNotNeeded() {
        assertDoesNotThrow(() -> ServerFeatures.require(ConfigLoaderTest.load(twoConnections()),
                WITHOUT_FAULT_TOLERANCE));
    }
}
