package dev.baton.impl.openai;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/** Provider {@code openai}: OpenAI and OpenAI-compatible hosts. */
public final class OpenAiAdapterFactory implements ProviderAdapterFactory {

    @Override
    public String id() {
        return OpenAiAdapter.ID;
    }

    @Override
    public Optional<URI> defaultBaseUrl() {
        return Optional.of(URI.create("https://api.openai.com/v1"));
    }

    @Override
    public Set<String> vendors() {
        return Set.of("openai");
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new OpenAiAdapter(context);
    }
}
