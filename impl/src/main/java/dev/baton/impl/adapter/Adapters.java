package dev.baton.impl.adapter;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.http.BatonHttpClient;
import dev.baton.impl.http.HttpExchange;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;
import dev.baton.spi.ProviderTransport;

import java.time.InstantSource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds the provider adapters on the class path and creates them. Stateless. */
public final class Adapters {

    private Adapters() {
    }

    /**
     * Every {@link ProviderAdapterFactory} listed in a {@code META-INF/services} file the application can see.
     * Searched with the thread context class loader, which during deployment is the application's: in a WAR it
     * sees every jar in {@code WEB-INF/lib}, where a third-party adapter sits, even when Baton itself was loaded
     * by a shared library's or a server module's loader that cannot. Baton's own loader is searched too, for the
     * built-in adapters when no context loader is set or it does not delegate to Baton's.
     *
     * @throws FailoverDefinitionException when a factory cannot be loaded or two declare one id
     */
    public static List<ProviderAdapterFactory> discover() {
        Map<String, ProviderAdapterFactory> byClass = new LinkedHashMap<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try {
            for (ClassLoader loader : new ClassLoader[] {context, Adapters.class.getClassLoader()}) {
                if (loader != null) {
                    ServiceLoader.load(ProviderAdapterFactory.class, loader)
                            .forEach(f -> byClass.putIfAbsent(f.getClass().getName(), f));
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new FailoverDefinitionException("a provider adapter cannot be loaded: " + e.getMessage());
        }
        Map<String, ProviderAdapterFactory> byId = new TreeMap<>();
        for (ProviderAdapterFactory factory : byClass.values()) {
            ProviderAdapterFactory other = byId.putIfAbsent(factory.id(), factory);
            if (other != null) {
                throw new FailoverDefinitionException("two provider adapters declare the id '" + factory.id() + "': "
                        + other.getClass().getName() + " and " + factory.getClass().getName());
            }
        }
        return List.copyOf(byId.values());
    }

    /** One adapter per factory, by id, all sharing {@code http}, a redactor of the configured keys and {@code clock}. */
    public static Map<String, ProviderAdapter> create(Collection<ProviderAdapterFactory> factories,
                                                      BatonHttpClient http, BatonConfig config, InstantSource clock) {
        AdapterContext context = context(http, config.maxResponseBytes(), Redactor.forConnections(config.connections()),
                clock);
        Map<String, ProviderAdapter> adapters = new TreeMap<>();
        for (ProviderAdapterFactory factory : factories) {
            adapters.put(factory.id(), factory.create(context));
        }
        return Map.copyOf(adapters);
    }

    /**
     * What every adapter gets: the transport over {@code http}, bounded to {@code maxResponseBytes}, the redactor and
     * the clock.
     */
    public static AdapterContext context(BatonHttpClient http, long maxResponseBytes, Redactor redactor,
                                         InstantSource clock) {
        return new Context(new HttpExchange(http, maxResponseBytes), redactor, clock);
    }

    private record Context(ProviderTransport transport, Redactor redactor, InstantSource clock)
            implements AdapterContext {

        @Override
        public String redact(String text) {
            return redactor.clean(text);
        }
    }
}
