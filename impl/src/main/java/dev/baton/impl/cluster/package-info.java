/**
 * A cluster of nodes sharing what they learn about providers ({@code baton.cluster.store=redis}):
 * {@link dev.baton.impl.cluster.ClusterSync} keeps each node's local view in step through a
 * {@link dev.baton.impl.cluster.ClusterStore}, off the request path. The store on Redis is in the module
 * {@code baton-cluster-redis}, found through {@link dev.baton.impl.cluster.ClusterStoreProvider}. See docs/cluster.md.
 */
package dev.baton.impl.cluster;
