package dev.baton.impl.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * @param vendors  the vendors whose models it serves as {@code vendor/model} ({@code vendors}, else its provider's)
 * @param priority its place among the connections serving a model a request names: lower first, then configured order
 * @param modelIds every model a request may name for it, to the id sent to the provider: its {@code models} as they
 *                 are, its {@code model-ids.*}, and the known {@code vendor/model} ids of its vendors that its
 *                 provider has an id for; in that order
 * @param secretSettings the names of the {@code settings} that hold credentials (a cloud's secret key): redacted
 *                 wherever provider text reaches a log, a record or an error, as {@code apiKey} is
 */
public record ConnectionConfig(String name, String provider, URI baseUrl, String apiKey, List<String> models,
                               Map<String, String> headers, HealthPolicy health, List<URI> alternateBaseUrls,
                               Map<String, String> settings, Map<String, Map<String, String>> modelSettings,
                               ConnectionLimits limits, Set<String> vendors, int priority, Map<String, String> modelIds,
                               Set<String> secretSettings) {

    public ConnectionConfig {
        models = List.copyOf(models);
        headers = Map.copyOf(headers);
        alternateBaseUrls = List.copyOf(alternateBaseUrls);
        settings = Map.copyOf(settings);
        modelSettings = modelSettings.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
        vendors = Set.copyOf(vendors);
        modelIds = Collections.unmodifiableMap(new LinkedHashMap<>(modelIds));
        secretSettings = Set.copyOf(secretSettings);
    }

    /** A connection serving its {@code models} by their own names, and no vendor's. */
    public ConnectionConfig(String name, String provider, URI baseUrl, String apiKey, List<String> models,
                            Map<String, String> headers, HealthPolicy health, List<URI> alternateBaseUrls,
                            Map<String, String> settings, Map<String, Map<String, String>> modelSettings,
                            ConnectionLimits limits) {
        this(name, provider, baseUrl, apiKey, models, headers, health, alternateBaseUrls, settings, modelSettings, limits,
                Set.of(), 0, identity(models), Set.of());
    }

    private static Map<String, String> identity(List<String> models) {
        Map<String, String> ids = new LinkedHashMap<>();
        models.forEach(m -> ids.put(m, m));
        return ids;
    }

    /** This connection serving {@code modelIds} as well (those it has already keep their id). */
    ConnectionConfig servingAlso(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(modelIds);
        more.forEach(all::putIfAbsent);
        return new ConnectionConfig(name, provider, baseUrl, apiKey, models, headers, health, alternateBaseUrls, settings,
                modelSettings, limits, vendors, priority, all, secretSettings);
    }

    /** Its credentials: the api-key and the values of its secret settings, for redaction. */
    public List<String> credentials() {
        List<String> all = new ArrayList<>();
        all.add(apiKey);
        secretSettings.forEach(name -> all.add(settings.get(name)));
        return all;
    }

    /** Whether a request may name {@code model} for this connection. */
    public boolean serves(String model) {
        return modelIds.containsKey(model);
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
                + ", models=" + models + (vendors.isEmpty() ? "" : ", vendors=" + new TreeSet<>(vendors)) + "]";
    }
}
