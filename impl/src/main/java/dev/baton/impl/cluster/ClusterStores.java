package dev.baton.impl.cluster;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.config.OptionalModules;

import java.util.Map;
import java.util.concurrent.ThreadFactory;

/** Opens the cluster store that {@code baton.cluster.store} names, from the module that provides it. */
public final class ClusterStores {

    /** The module that provides each store other than {@code memory}. */
    private static final Map<String, String> MODULES = Map.of("redis", "baton-cluster-redis");

    private ClusterStores() {
    }

    /**
     * The store {@code settings} name, not yet started. Only for a shared store: {@code memory} has none.
     *
     * @throws FailoverDefinitionException when its module is not on the class path
     */
    public static ClusterStore open(ClusterSettings settings, ThreadFactory threads, Scheduler scheduler) {
        return provider(settings).open(settings, threads, scheduler);
    }

    /**
     * Refuses a shared store whose module is not on the class path; nothing to check for {@code memory}.
     *
     * @throws FailoverDefinitionException naming the key and the module to add
     */
    public static void require(ClusterSettings settings) {
        if (!"memory".equals(settings.store())) {
            provider(settings);
        }
    }

    private static ClusterStoreProvider provider(ClusterSettings settings) {
        String store = settings.store();
        String module = MODULES.get(store);
        if (module == null) {
            throw new IllegalArgumentException("no shared cluster store is called " + store);
        }
        return OptionalModules.require(ClusterStoreProvider.class, ClusterStoreProvider::name,
                ClusterSettings.PREFIX + "store", store, module);
    }
}
