package dev.baton.impl.http;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A provider's endpoint URIs, each parsed once: the hosts are the configuration's few and the paths an adapter's
 * constants, while parsing one for every request cost about a microsecond. One per adapter; thread-safe.
 */
public final class Endpoints {

    private record Endpoint(URI base, String path) {
    }

    private final Map<Endpoint, URI> uris = new ConcurrentHashMap<>();

    /** {@code base} followed by {@code path}, e.g. {@code /chat/completions}. */
    public URI of(URI base, String path) {
        return uris.computeIfAbsent(new Endpoint(base, path), e -> URI.create(e.base() + e.path()));
    }
}
