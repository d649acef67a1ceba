package dev.baton.vertex;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Provider {@code vertex}: Google Cloud's Vertex AI. Every connection names its {@code project} and {@code region}
 * ({@code global} for the global endpoint), which make its default {@code base-url}, and authenticates with OAuth
 * access tokens: from the service-account key in {@code credentials-file}, else from Application Default
 * Credentials. No {@code api-key}. Serves vendors {@code anthropic} (Claude, through {@code rawPredict}) and
 * {@code google} (Gemini, through the OpenAI-compatible endpoint).
 */
public final class VertexAdapterFactory implements ProviderAdapterFactory {

    /** The {@link dev.baton.spi.ProviderTarget#settings()} names this provider reads. */
    public static final String PROJECT = "project";
    public static final String REGION = "region";
    public static final String CREDENTIALS_FILE = "credentials-file";

    /** Google's project ids: 6 to 30 lower-case letters, digits or '-', from a letter; old ones with a domain. */
    private static final String PROJECT_FORMAT = "([a-z][a-z0-9.-]*[a-z0-9]:)?[a-z][a-z0-9-]{4,28}[a-z0-9]";
    /** A region goes into a host name: us-east5, europe-west1, global. */
    private static final String REGION_FORMAT = "global|[a-z]+(-[a-z]+[0-9]*)+";

    private static final Set<ConnectionKey> KEYS = Set.of(
            ConnectionKey.required(PROJECT).withFormat(PROJECT_FORMAT, "a Google Cloud project id such as my-project-123"),
            ConnectionKey.required(REGION).withFormat(REGION_FORMAT,
                    "a Vertex AI region such as us-east5 or europe-west1, or global"),
            ConnectionKey.optional(CREDENTIALS_FILE));

    @Override
    public String id() {
        return VertexAdapter.ID;
    }

    @Override
    public Set<ConnectionKey> connectionKeys() {
        return KEYS;
    }

    /**
     * {@code https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}}, or
     * {@code https://aiplatform.googleapis.com/v1/projects/{project}/locations/global}; empty while the project or the
     * region is missing or malformed (their own keys report it).
     */
    @Override
    public Optional<URI> defaultBaseUrl(Map<String, String> settings) {
        String project = settings.get(PROJECT);
        String region = settings.get(REGION);
        if (project == null || region == null || !Pattern.matches(PROJECT_FORMAT, project)
                || !Pattern.matches(REGION_FORMAT, region)) {
            return Optional.empty();
        }
        String host = region.equals("global") ? "aiplatform.googleapis.com" : region + "-aiplatform.googleapis.com";
        return Optional.of(URI.create("https://" + host + "/v1/projects/" + project + "/locations/" + region));
    }

    /** Vertex AI authenticates with OAuth access tokens from Google's credential chain, never with an api-key. */
    @Override
    public boolean requiresApiKey() {
        return false;
    }

    @Override
    public Set<String> vendors(URI baseUrl) {
        return Set.of("anthropic", "google");
    }

    /** Claude on Vertex AI from a table of the ids Vertex AI serves ({@code claude-sonnet-4-5@20250929}); Gemini as is. */
    @Override
    public Optional<String> modelId(String vendor, String model, Map<String, String> settings) {
        return VertexModels.id(vendor, model);
    }

    /** The Claude ids of the table ({@code anthropic/claude-sonnet-4-5}, …); Gemini's are Google's own. */
    @Override
    public Set<String> knownModels() {
        return VertexModels.known();
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new VertexAdapter(context, new AccessTokens(context));
    }
}
