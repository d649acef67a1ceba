package dev.baton.impl.contract;

import dev.baton.impl.engine.Redactor;
import dev.baton.impl.openai.OpenAiAdapter;
import dev.baton.spi.ProviderAdapter;

import dev.baton.impl.http.BatonHttpClient;

class OpenAiAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapter adapter(BatonHttpClient client, Redactor redactor) {
        return new OpenAiAdapter(client, 8 * 1024 * 1024, redactor);
    }
}
