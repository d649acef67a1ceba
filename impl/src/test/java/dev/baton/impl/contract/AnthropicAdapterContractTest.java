package dev.baton.impl.contract;

import dev.baton.impl.anthropic.AnthropicAdapter;
import dev.baton.impl.anthropic.AnthropicAdapterFactory;
import dev.baton.spi.ProviderAdapterFactory;

class AnthropicAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapterFactory factory() {
        return new AnthropicAdapterFactory();
    }
}
