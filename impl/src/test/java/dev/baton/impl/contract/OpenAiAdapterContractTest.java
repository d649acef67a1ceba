package dev.baton.impl.contract;

import dev.baton.impl.openai.OpenAiAdapterFactory;
import dev.baton.spi.ProviderAdapterFactory;

class OpenAiAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapterFactory factory() {
        return new OpenAiAdapterFactory();
    }
}
