package dev.baton.impl.cluster;

import dev.baton.impl.concurrent.Scheduler;

import java.util.concurrent.ThreadFactory;

/**
 * A {@link ClusterStore} in a module of its own, found with {@link java.util.ServiceLoader} when that module's jar is
 * on the class path: {@code baton-cluster-redis} provides {@code redis}. Internal: the modules implementing it are
 * Baton's own and released with it.
 */
public interface ClusterStoreProvider {

    /** The value of {@code baton.cluster.store} that selects this store. */
    String name();

    /**
     * A store for {@code settings}, not yet started: {@link ClusterStore#start} connects it.
     *
     * @param threads   makes the store's own I/O threads
     * @param scheduler runs its delayed work (reconnects, heartbeats)
     */
    ClusterStore open(ClusterSettings settings, ThreadFactory threads, Scheduler scheduler);
}
