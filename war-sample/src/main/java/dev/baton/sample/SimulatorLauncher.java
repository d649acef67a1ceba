package dev.baton.sample;

import dev.baton.testkit.ProviderSimulator;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Starts the testkit's provider simulator on 127.0.0.1 next to the application, so the sample answers on a machine
 * with no provider keys. The demo configuration points the connections {@code primary} and {@code standby} at it.
 *
 * <p>Off with {@code sample.simulator.enabled=false} (e.g. {@code -Dsample.simulator.enabled=false}, or the
 * environment variable {@code SAMPLE_SIMULATOR_ENABLED=false}) when real providers are configured or when a test
 * runs its own simulator.
 */
@WebListener
public class SimulatorLauncher implements ServletContextListener {

    private static final Logger LOG = Logger.getLogger(SimulatorLauncher.class.getName());

    private ProviderSimulator simulator;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        Config config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
        boolean enabled = config.getOptionalValue("sample.simulator.enabled", Boolean.class).orElse(true);
        if (!enabled) {
            LOG.info("Baton sample: provider simulator disabled (sample.simulator.enabled=false)");
            return;
        }
        int port = config.getOptionalValue("sample.simulator.port", Integer.class).orElse(8089);
        simulator = ProviderSimulator.start(port);
        LOG.info(() -> "Baton sample: provider simulator on " + simulator.baseUrl("primary") + " and "
                + simulator.baseUrl("standby") + "; control API http://127.0.0.1:" + simulator.port()
                + "/__sim/ (e.g. PUT /__sim/accounts/primary/default {\"type\":\"overloaded\"}, POST /__sim/reset)");
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (simulator != null) {
            simulator.close();
            simulator = null;
            LOG.info("Baton sample: provider simulator stopped");
        }
    }
}
