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
 */
public record ConnectionConfig(String name, String provider, URI baseUrl, String apiKey, List<String> models,
                               Map<String, String> headers, HealthPolicy health) {

    public ConnectionConfig {
        models = List.copyOf(models);
        headers = Map.copyOf(headers);
    }

    @Override
    public String toString() {
        return "ConnectionConfig[" + name + ", provider=" + provider + ", baseUrl=" + baseUrl + ", models=" + models + "]";
    }
}
