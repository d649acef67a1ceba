package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProviderSimulatorExtensionTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    @Order(1)
    void aTestLeavesAScriptAndALogBehind() throws Exception {
        sim.account("a").enqueue(Behavior.serverError(), Behavior.serverError());

        assertEquals(500, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode());
    }

    @Test
    @Order(2)
    void theNextTestStartsFromAResetSimulator() throws Exception {
        assertEquals(0, sim.account("a").requestCount());
        assertEquals(200, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode());
    }

    @Nested
    class NestedTests {
        @Test
        void shareTheOuterSimulator() {
            assertSame(sim.simulator(), sim.simulator());
            assertEquals(0, sim.account("a").requestCount());
        }
    }
}
