package dev.baton.impl.contract;

import dev.baton.impl.anthropic.AnthropicAdapter;
import dev.baton.impl.engine.Redactor;
import dev.baton.spi.ProviderAdapter;

import dev.baton.impl.http.BatonHttpClient;

class AnthropicAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapter adapter(BatonHttpClient client, Redactor redactor) {
        return new AnthropicAdapter(client, 8 * 1024 * 1024, redactor);
    }
}
