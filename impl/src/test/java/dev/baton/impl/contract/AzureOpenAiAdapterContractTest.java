package dev.baton.impl.contract;

import dev.baton.impl.azure.AzureOpenAiAdapter;
import dev.baton.impl.azure.AzureOpenAiAdapterFactory;
import dev.baton.spi.ProviderAdapterFactory;
import dev.baton.spi.ProviderTarget;

import java.net.URI;
import java.util.List;
import java.util.Map;

class AzureOpenAiAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapterFactory factory() {
        return new AzureOpenAiAdapterFactory();
    }

    @Override
    URI baseUrl(String account) {
        return URI.create(sim.simulator().azureBaseUrl(account));
    }

    @Override
    ProviderTarget target(URI base) {
        return new ProviderTarget("contract", AzureOpenAiAdapter.ID, base, KEY, "m", Map.of(), List.of(),
                Map.of("api-version", "2024-10-21", "deployment", "m"));
    }
}
