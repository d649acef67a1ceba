package dev.baton.system;

import dev.baton.testkit.ProviderSimulator;
import java.net.URL;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every client-side system test shares: the provider simulator the deployed sample talks to
 * (one per class, reset after each test) and a {@link Gateway} to the deployment. Subclasses
 * declare their own {@code @Deployment(testable = false)}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
abstract class ClientSideIT {

    static ProviderSimulator simulator;

    @ArquillianResource
    URL base;

    Gateway gateway;

    /** Unless the class's deployment already started it (a deployment that needs the simulator's own keys). */
    @BeforeAll
    static void startSimulator() {
        if (simulator == null) {
            simulator = ProviderSimulator.start(Ports.simulator());
        }
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
            simulator = null;
        }
    }

    @BeforeEach
    void connect() {
        gateway = new Gateway(base);
    }

    @AfterEach
    void resetSimulator() {
        gateway.close();
        simulator.reset();
    }
}
