package dev.baton.impl.config;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * One provider account. {@link #toString()} never shows the key.
 *
 * @param name     the configured name ({@code baton.connections.<name>.*})
 * @param provider the adapter id
 * @param baseUrl  the API base URL, https unless the host is loopback
 * @param apiKey   the credential, or the empty string for a keyless local host
 * @param models   the models it serves, in configured order
 * @param headers  extra request headers
 * @param health   its ejection policy
 * @param alternateBaseUrls hosts tried in order, inside the same attempt, when the one before cannot be reached
 * @param apiVersion  the {@code api-version} query parameter (azure-openai only), or null
 * @param deployments model to deployment name (azure-openai only); a model not listed is served by a deployment
 *                    of its own name
 * @param limits   its local concurrency and rate limits
 */
public record ConnectionConfig(String name, String provider, URI baseUrl, String apiKey, List<String> models,
                               Map<String, String> headers, HealthPolicy health, List<URI> alternateBaseUrls,
                               String apiVersion, Map<String, String> deployments, ConnectionLimits limits) {

    public ConnectionConfig {
        models = List.copyOf(models);
        headers = Map.copyOf(headers);
        alternateBaseUrls = List.copyOf(alternateBaseUrls);
        deployments = Map.copyOf(deployments);
    }


    /**
     * The provider settings of a target of this connection serving {@code model}: {@code api-version} and
     * {@code deployment} where configured (see {@code dev.baton.spi.ProviderTarget#settings()}).
     */
    public Map<String, String> settings(String model) {
        Map<String, String> settings = new java.util.TreeMap<>();
        if (apiVersion != null) {
            settings.put("api-version", apiVersion);
        }
        String deployment = deployments.get(model);
        if (deployment != null) {
            settings.put("deployment", deployment);
        }
        return Map.copyOf(settings);
    }

    @Override
    public String toString() {
        return "ConnectionConfig[" + name + ", provider=" + provider + ", baseUrl=" + baseUrl
                + (alternateBaseUrls.isEmpty() ? "" : ", alternateBaseUrls=" + alternateBaseUrls)
                + ", models=" + models + "]";
    }
}
