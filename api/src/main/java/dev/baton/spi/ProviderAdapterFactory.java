package dev.baton.spi;

import java.net.URI;
import java.util.Map;
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

    /**
     * The {@code base-url} a connection with {@code settings} (the values of its {@link #connectionKeys()}) gets when it
     * sets none: for a cloud, the host of the connection's region. {@link #defaultBaseUrl()} unless overridden.
     */
    default Optional<URI> defaultBaseUrl(Map<String, String> settings) {
        return defaultBaseUrl();
    }

    /**
     * Whether a connection to a host that is not loopback must set {@code api-key}: false for a provider that finds its
     * credentials another way (a cloud's own credential chain, keys of its own).
     */
    default boolean requiresApiKey() {
        return true;
    }

    /**
     * The vendors whose models a connection of this provider at {@code baseUrl} serves unless it names its own
     * ({@code baton.connections.<name>.vendors}): {@code anthropic} for Anthropic's API, several for a cloud that hosts
     * many vendors' models, none for a host whose models only its operator knows. A request naming
     * {@code vendor/model} can go to every connection that serves the vendor.
     */
    default Set<String> vendors(URI baseUrl) {
        return Set.of();
    }

    /**
     * This provider's own id for {@code model} of {@code vendor} (a request's {@code vendor/model}) on a connection
     * with {@code settings}, or empty when the provider knows no such id, so that the connection does not serve it.
     * Asked only for the connection's vendors; a connection's {@code model-ids.<vendor>/<model>} key overrides the
     * answer. By default the model as its vendor's own API names it.
     */
    default Optional<String> modelId(String vendor, String model, Map<String, String> settings) {
        return Optional.of(model);
    }

    /**
     * The {@code vendor/model} ids this provider has an id of its own for (a cloud's model table): with Baton's price
     * list and what the configuration names, the ids a request may name. Empty by default.
     */
    default Set<String> knownModels() {
        return Set.of();
    }

    /** The adapter for every connection of this provider. Called once, after the configuration was read. */
    ProviderAdapter create(AdapterContext context);
}
