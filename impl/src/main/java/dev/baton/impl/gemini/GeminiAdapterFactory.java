package dev.baton.impl.gemini;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/**
 * Provider {@code gemini}: Google's Gemini API with an API key, through its OpenAI-compatible endpoint. Serves vendor
 * {@code google} under Google's own model ids ({@code google/gemini-2.5-flash} is {@code gemini-2.5-flash}).
 */
public final class GeminiAdapterFactory implements ProviderAdapterFactory {

    @Override
    public String id() {
        return GeminiAdapter.ID;
    }

    @Override
    public Optional<URI> defaultBaseUrl() {
        return Optional.of(URI.create("https://generativelanguage.googleapis.com/v1beta/openai"));
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        return Set.of("google");
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new GeminiAdapter(context);
    }
}
