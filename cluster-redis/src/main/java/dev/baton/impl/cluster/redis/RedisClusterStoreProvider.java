package dev.baton.impl.cluster.redis;

import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.cluster.ClusterStoreProvider;
import dev.baton.impl.concurrent.Scheduler;

import java.util.concurrent.ThreadFactory;

/** {@code baton.cluster.store=redis}: the {@link RedisClusterStore} at {@code baton.cluster.redis.url}. */
public final class RedisClusterStoreProvider implements ClusterStoreProvider {

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public ClusterStore open(ClusterSettings settings, ThreadFactory threads, Scheduler scheduler) {
        return new RedisClusterStore(settings, threads, scheduler);
    }
}
