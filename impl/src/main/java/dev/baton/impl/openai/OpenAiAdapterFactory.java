package dev.baton.impl.openai;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/** Provider {@code openai}: OpenAI and OpenAI-compatible hosts. */
public final class OpenAiAdapterFactory implements ProviderAdapterFactory {

    private static final URI OPENAI = URI.create("https://api.openai.com/v1");

    @Override
    public String id() {
        return OpenAiAdapter.ID;
    }

    @Override
    public Optional<URI> defaultBaseUrl() {
        return Optional.of(OPENAI);
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        // A compatible host serves what its operator put there: its connection says which vendors in `vendors`.
        return OPENAI.getHost().equalsIgnoreCase(baseUrl.getHost()) ? Set.of("openai") : Set.of();
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new OpenAiAdapter(context);
    }
}
