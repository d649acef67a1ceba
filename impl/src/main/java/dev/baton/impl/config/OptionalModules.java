package dev.baton.impl.config;

import dev.baton.exception.FailoverDefinitionException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * Finds what an optional Baton module (a jar of its own, such as {@code baton-cluster-redis}) provides through its
 * {@code META-INF/services} file, and refuses configuration that selects a module the application does not have:
 * a store that is configured and absent must stop the deployment, not fall back to memory unnoticed.
 */
public final class OptionalModules {

    private OptionalModules() {
    }

    /**
     * The provider of {@code service} named {@code value}.
     *
     * @param key        the configuration key that selected it, for the error
     * @param artifactId the module that holds it, for the error
     * @throws FailoverDefinitionException naming the key, the value and the module when no such provider is found
     */
    public static <T> T require(Class<T> service, Function<T, String> name, String key, String value,
                                String artifactId) {
        for (T provider : providers(service, key, value)) {
            if (value.equals(name.apply(provider))) {
                return provider;
            }
        }
        throw new FailoverDefinitionException(key + "=" + value + " needs " + artifactId
                + " on the class path (dev.baton:" + artifactId + ")");
    }

    /**
     * Every provider of {@code service} the application can see. Searched with the thread context class loader, which
     * during deployment is the application's and sees every jar in {@code WEB-INF/lib}, and with Baton's own, for
     * when no context loader is set (as {@code Adapters.discover} does for provider adapters).
     */
    private static <T> List<T> providers(Class<T> service, String key, String value) {
        Map<String, T> byClass = new LinkedHashMap<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try {
            for (ClassLoader loader : new ClassLoader[] {context, service.getClassLoader()}) {
                if (loader != null) {
                    ServiceLoader.load(service, loader).forEach(p -> byClass.putIfAbsent(p.getClass().getName(), p));
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new FailoverDefinitionException(key + "=" + value + ": the module's " + service.getSimpleName()
                    + " cannot be loaded: " + e.getMessage());
        }
        return new ArrayList<>(byClass.values());
    }
}
