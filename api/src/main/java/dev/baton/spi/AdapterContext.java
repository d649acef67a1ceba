package dev.baton.spi;

import java.time.InstantSource;

/**
 * What Baton gives every adapter it creates. Thread-safe.
 */
public interface AdapterContext {

    /** Baton's HTTP client; use it instead of one of your own, so bodies are bounded and no thread blocks. */
    ProviderTransport transport();

    /**
     * {@code text} with every configured credential and anything shaped like a key or bearer token removed, and cut
     * to a bounded length. Put provider messages through it before they go into a {@link ProviderFailure}.
     */
    String redact(String text);

    /**
     * Wall time as Baton sees it (the engine's clock, which tests move), for what an adapter dates: an HTTP-date
     * {@code Retry-After}, a translated answer's {@code created}.
     */
    InstantSource clock();
}
