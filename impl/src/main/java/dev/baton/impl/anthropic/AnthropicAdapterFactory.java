package dev.baton.impl.anthropic;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/** Provider {@code anthropic}: the Anthropic Messages API. */
public final class AnthropicAdapterFactory implements ProviderAdapterFactory {

    @Override
    public String id() {
        return AnthropicAdapter.ID;
    }

    @Override
    public Optional<URI> defaultBaseUrl() {
        return Optional.of(URI.create("https://api.anthropic.com/v1"));
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        return Set.of("anthropic");
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new AnthropicAdapter(context);
    }
}
