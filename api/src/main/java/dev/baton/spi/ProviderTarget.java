package dev.baton.spi;

import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * Where one attempt goes: a configured connection and one of its models. Built from
 * configuration only; a request can never name a host.
 *
 * @param connection the connection's configured name
 * @param provider   the adapter id, for example {@code openai}
 * @param baseUrl    the API base, for example {@code https://api.openai.com/v1}
 * @param apiKey     the provider credential; never logged, recorded or shown ({@link #toString()} hides it)
 * @param model      the model name sent to the provider
 * @param headers    extra request headers from configuration (values hidden from {@link #toString()})
 */
public record ProviderTarget(String connection, String provider, URI baseUrl, String apiKey, String model,
                             Map<String, String> headers) {

    public ProviderTarget {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        headers = Map.copyOf(headers);
    }

    /** {@code connection/model}, the name used in records and error messages. */
    public String name() {
        return connection + "/" + model;
    }

    @Override
    public String toString() {
        return "ProviderTarget[" + name() + ", provider=" + provider + ", baseUrl=" + baseUrl
                + ", apiKey=" + (apiKey == null || apiKey.isEmpty() ? "none" : "<hidden>")
                + ", headers=" + headers.keySet() + "]";
    }
}
