package dev.baton.impl.contract;

import dev.baton.impl.gemini.GeminiAdapterFactory;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;

/** The Gemini API's OpenAI-compatible endpoint, as the simulator speaks it (Google's errors, in an array). */
class GeminiAdapterContractTest extends AdapterContract {

    @Override
    ProviderAdapterFactory factory() {
        return new GeminiAdapterFactory();
    }

    @Override
    URI baseUrl(String account) {
        return URI.create(sim.geminiBaseUrl(account));
    }
}
