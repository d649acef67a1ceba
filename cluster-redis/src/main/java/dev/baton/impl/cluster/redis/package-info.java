/**
 * The cluster store on Redis ({@code baton.cluster.store=redis}), through Lettuce: {@link
 * dev.baton.impl.cluster.redis.RedisClusterStore}, found by baton-impl through {@link
 * dev.baton.impl.cluster.redis.RedisClusterStoreProvider}. Lettuce runs on the Netty that baton-impl brings. Internal:
 * not API, may change without notice.
 */
package dev.baton.impl.cluster.redis;
