package dev.baton.spi;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/**
 * Brings one provider kind to Baton. Found with {@link java.util.ServiceLoader}: list the implementing class in
 * {@code META-INF/services/dev.baton.spi.ProviderAdapterFactory} of your jar and put the jar next to Baton's (in a
 * WAR, in {@code WEB-INF/lib}). Baton reads the declarations below when the application deploys, to validate every
 * {@code baton.connections.<name>.*} key, and then calls {@link #create} once.
 *
 * <p>Needs a public no-argument constructor. Two factories with one {@link #id()} fail the deployment.
 */
public interface ProviderAdapterFactory {

    /** The provider kind, as written in {@code baton.connections.<name>.provider}: lower-case kebab-case. */
    String id();

    /**
     * The keys this provider reads under {@code baton.connections.<name>.} beyond those every connection has
     * ({@code base-url}, {@code api-key}, {@code models}, {@code headers.*}, …). Their values reach the adapter in
     * {@link ProviderTarget#settings()}. Any other key is refused when the application deploys.
     */
    default Set<ConnectionKey> connectionKeys() {
        return Set.of();
    }

    /** The {@code base-url} a connection gets when it sets none; empty when every connection must set one. */
    default Optional<URI> defaultBaseUrl() {
        return Optional.empty();
    }

    /** The adapter for every connection of this provider. Called once, after the configuration was read. */
    ProviderAdapter create(AdapterContext context);
}
