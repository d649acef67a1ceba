package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ProviderSimulatorExtension.class)
class ProviderSimulatorParameterTest {

    private ProviderSimulator injected;

    @BeforeEach
    void remember(ProviderSimulator simulator) {
        injected = simulator;
    }

    @Test
    void theExtensionInjectsOneRunningSimulatorPerClass(ProviderSimulator simulator) throws Exception {
        assertSame(injected, simulator);
        assertEquals(200, new Client().complete(simulator.baseUrl("x"), "gpt-4o").statusCode());
    }
}
