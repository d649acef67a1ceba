package dev.baton.bedrock;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Provider {@code bedrock}: Amazon Bedrock's Converse API in a connection's {@code region}, signed with SigV4 (or a
 * Bedrock API key in {@code api-key}). Serves the vendors of its built-in model table, under Bedrock's own ids.
 */
public final class BedrockAdapterFactory implements ProviderAdapterFactory {

    private static final BedrockModels MODELS = BedrockModels.builtIn();

    @Override
    public String id() {
        return BedrockAdapter.ID;
    }

    @Override
    public Set<ConnectionKey> connectionKeys() {
        return Set.of(
                ConnectionKey.required("region").withFormat("[a-z]{2}(-[a-z]+)+-[0-9]+", "an AWS region such as us-east-1"),
                ConnectionKey.optional("access-key-id").withFormat("[A-Z0-9]{16,128}", "an AWS access key id"),
                ConnectionKey.optional("secret-access-key").asSecret(),
                ConnectionKey.optional("session-token").asSecret(),
                ConnectionKey.optional("profile"),
                ConnectionKey.optional("inference-profile").withFormat("[a-z]+(-[a-z]+)?",
                        "a cross-region inference profile prefix such as us, eu, apac or global"));
    }

    /** {@code https://bedrock-runtime.{region}.amazonaws.com}; none without a region (a required key anyway). */
    @Override
    public Optional<URI> defaultBaseUrl(Map<String, String> settings) {
        String region = settings.get("region");
        if (region == null || !region.matches("[a-z]{2}(-[a-z]+)+-[0-9]+")) {
            return Optional.empty();
        }
        return Optional.of(URI.create("https://bedrock-runtime." + region + ".amazonaws.com"));
    }

    /** Credentials come from the connection's keys, its profile or AWS's default chain; {@code api-key} is optional. */
    @Override
    public boolean requiresApiKey() {
        return false;
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        return MODELS.vendors();
    }

    @Override
    public Set<String> knownModels() {
        return MODELS.names();
    }

    /** The built-in table's id, with the connection's {@code inference-profile} as its prefix when set. */
    @Override
    public Optional<String> modelId(String vendor, String model, Map<String, String> settings) {
        return MODELS.id(vendor, model, settings.get("inference-profile"));
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new BedrockAdapter(context);
    }
}
