package dev.baton.impl.contract;

import dev.baton.impl.azure.AzureOpenAiAdapter;
import dev.baton.impl.engine.Redactor;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderTarget;

import java.net.URI;
import dev.baton.impl.http.BatonHttpClient;
import java.util.List;
import java.util.Map;

class AzureOpenAiAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapter adapter(BatonHttpClient client, Redactor redactor) {
        return new AzureOpenAiAdapter(client, 8 * 1024 * 1024, redactor);
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
