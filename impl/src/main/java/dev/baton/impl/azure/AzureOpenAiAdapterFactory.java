package dev.baton.impl.azure;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Set;

/**
 * Provider {@code azure-openai}. Every connection names its resource ({@code base-url}, no default) and an
 * {@code api-version}; {@code deployments.<model>} maps a model to the deployment serving it.
 */
public final class AzureOpenAiAdapterFactory implements ProviderAdapterFactory {

    private static final Set<ConnectionKey> KEYS = Set.of(
            ConnectionKey.required(AzureOpenAiAdapter.API_VERSION).withFormat("\\d{4}-\\d{2}-\\d{2}(-preview)?",
                    "an Azure OpenAI API version such as 2024-10-21 or 2025-04-01-preview"),
            // a deployment name is one URL path segment
            ConnectionKey.perModel("deployments", AzureOpenAiAdapter.DEPLOYMENT).withFormat("[A-Za-z0-9._-]{1,64}",
                    "a deployment name (1 to 64 letters, digits, '.', '_' or '-')"));

    @Override
    public String id() {
        return AzureOpenAiAdapter.ID;
    }

    @Override
    public Set<ConnectionKey> connectionKeys() {
        return KEYS;
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        return Set.of("openai");
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new AzureOpenAiAdapter(context);
    }
}
