package dev.baton.impl.config;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

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
 * @param settings the provider's own connection keys' values, by setting name (see
 *                 {@code dev.baton.spi.ConnectionKey}); empty for most providers
 * @param modelSettings the provider's per-model keys' values: model, then setting name
 * @param limits   its local concurrency and rate limits
 */
public record ConnectionConfig(String name, String provider, URI baseUrl, String apiKey, List<String> models,
                               Map<String, String> headers, HealthPolicy health, List<URI> alternateBaseUrls,
                               Map<String, String> settings, Map<String, Map<String, String>> modelSettings,
                               ConnectionLimits limits) {

    public ConnectionConfig {
        models = List.copyOf(models);
        headers = Map.copyOf(headers);
        alternateBaseUrls = List.copyOf(alternateBaseUrls);
        settings = Map.copyOf(settings);
        modelSettings = modelSettings.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    }


    /** The settings a target of this connection serving {@code model} sees ({@code ProviderTarget#settings()}). */
    public Map<String, String> settings(String model) {
        Map<String, String> forModel = modelSettings.get(model);
        if (forModel == null) {
            return settings;
        }
        Map<String, String> all = new TreeMap<>(settings);
        all.putAll(forModel);
        return Map.copyOf(all);
    }

    @Override
    public String toString() {
        return "ConnectionConfig[" + name + ", provider=" + provider + ", baseUrl=" + baseUrl
                + (alternateBaseUrls.isEmpty() ? "" : ", alternateBaseUrls=" + alternateBaseUrls)
                + ", models=" + models + "]";
    }
}
