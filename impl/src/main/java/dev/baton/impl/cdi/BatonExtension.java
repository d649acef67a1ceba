package dev.baton.impl.cdi;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConfigLoader;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Extension;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Reads Baton's configuration once, when the application deploys, so that a wrong or missing
 * value fails the deployment with a message naming the key instead of failing a request later.
 */
public class BatonExtension implements Extension {

    private volatile BatonConfig config;

    void validate(@Observes AfterDeploymentValidation event) {
        try {
            config = ConfigLoader.load(ConfigProvider.getConfig(), BatonChatService.PROVIDERS);
        } catch (FailoverDefinitionException e) {
            event.addDeploymentProblem(e);
        }
    }

    /** The configuration read at deployment. */
    public BatonConfig config() {
        if (config == null) {
            throw new IllegalStateException("Baton's configuration was not read; did the deployment fail?");
        }
        return config;
    }
}
