package dev.baton.impl.http;

import dev.baton.spi.ProviderException;

import java.net.http.HttpHeaders;

/** Turns a provider's error response into a classified failure; one per provider wire format. */
@FunctionalInterface
public interface ErrorReader {

    ProviderException read(int status, String body, HttpHeaders headers);
}
