package dev.baton.spi;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
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
 * @param alternateBaseUrls hosts of the same connection to try, in order, inside the same attempt when
 *                   {@code baseUrl} cannot be reached (never after a response arrived); often empty
 * @param settings   the values of the connection keys its provider declared (values hidden from {@link #toString()})
 *                   ({@link ProviderAdapterFactory#connectionKeys()}), by {@link ConnectionKey#setting()} name: for
 *                   example Azure OpenAI's {@code api-version} and {@code deployment}; empty for most providers
 */
public record ProviderTarget(String connection, String provider, URI baseUrl, String apiKey, String model,
                             Map<String, String> headers, List<URI> alternateBaseUrls, Map<String, String> settings) {

    /** A target with one host and no provider settings. */
    public ProviderTarget(String connection, String provider, URI baseUrl, String apiKey, String model,
                          Map<String, String> headers) {
        this(connection, provider, baseUrl, apiKey, model, headers, List.of(), Map.of());
    }

    public ProviderTarget {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        headers = Map.copyOf(headers);
        alternateBaseUrls = List.copyOf(alternateBaseUrls);
        settings = Map.copyOf(settings);
    }

    /** {@code baseUrl} followed by the alternate hosts: the order an attempt tries them in. */
    public List<URI> baseUrls() {
        List<URI> all = new ArrayList<>(1 + alternateBaseUrls.size());
        all.add(baseUrl);
        all.addAll(alternateBaseUrls);
        return List.copyOf(all);
    }


    /** {@code connection/model}, the name used in records and error messages. */
    public String name() {
        return connection + "/" + model;
    }

    @Override
    public String toString() {
        return "ProviderTarget[" + name() + ", provider=" + provider + ", baseUrl=" + baseUrl
                + ", apiKey=" + (apiKey == null || apiKey.isEmpty() ? "none" : "<hidden>")
                + ", headers=" + headers.keySet()
                + (alternateBaseUrls.isEmpty() ? "" : ", alternateBaseUrls=" + alternateBaseUrls)
                + (settings.isEmpty() ? "" : ", settings=" + settings.keySet()) + "]";
    }
}
