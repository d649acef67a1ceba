package dev.baton.impl.openai;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/** Provider {@code openai}: OpenAI and OpenAI-compatible hosts. */
public final class OpenAiAdapterFactory implements ProviderAdapterFactory {

    private static final URI OPENAI = URI.create("https://api.openai.com/v1");
    /**
     * The setting that says whether a connection's host speaks the Responses API: {@code native} sends it
     * {@code POST /responses} as it is, {@code translate} sends chat completions. By default only OpenAI's own API is
     * sent Responses requests.
     */
    static final String RESPONSES = "responses";
    private static final Set<ConnectionKey> KEYS = Set.of(ConnectionKey.optional(RESPONSES)
            .withFormat("native|translate", "native or translate"));

    @Override
    public String id() {
        return OpenAiAdapter.ID;
    }

    @Override
    public Optional<URI> defaultBaseUrl() {
        return Optional.of(OPENAI);
    }

    @Override
    public Set<ConnectionKey> connectionKeys() {
        return KEYS;
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        // A compatible host serves what its operator put there: its connection says which vendors in `vendors`.
        return isOpenAi(baseUrl) ? Set.of("openai") : Set.of();
    }

    /** Whether {@code baseUrl} is OpenAI's own API rather than a compatible host. */
    static boolean isOpenAi(URI baseUrl) {
        return OPENAI.getHost().equalsIgnoreCase(baseUrl.getHost());
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new OpenAiAdapter(context);
    }
}
