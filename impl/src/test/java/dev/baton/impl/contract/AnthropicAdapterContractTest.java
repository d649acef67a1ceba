package dev.baton.impl.contract;

import dev.baton.impl.anthropic.AnthropicAdapter;
import dev.baton.impl.engine.Redactor;
import dev.baton.spi.ProviderAdapter;

import java.net.http.HttpClient;

class AnthropicAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapter adapter(HttpClient client, Redactor redactor) {
        return new AnthropicAdapter(client, 8 * 1024 * 1024, redactor);
    }
}
