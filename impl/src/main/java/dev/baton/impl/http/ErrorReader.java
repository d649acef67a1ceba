package dev.baton.impl.http;

import dev.baton.spi.ProviderException;

/** Turns a provider's error response into a classified failure; one per provider wire format. */
@FunctionalInterface
public interface ErrorReader {

    ProviderException read(int status, String body, ResponseHeaders headers);
}
