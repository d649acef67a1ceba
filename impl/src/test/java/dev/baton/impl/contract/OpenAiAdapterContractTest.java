package dev.baton.impl.contract;

import dev.baton.impl.engine.Redactor;
import dev.baton.impl.openai.OpenAiAdapter;
import dev.baton.spi.ProviderAdapter;

import java.net.http.HttpClient;

class OpenAiAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapter adapter(HttpClient client, Redactor redactor) {
        return new OpenAiAdapter(client, 8 * 1024 * 1024, redactor);
    }
}
