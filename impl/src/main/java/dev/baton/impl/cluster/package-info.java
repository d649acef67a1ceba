/**
 * A cluster of nodes sharing what they learn about providers ({@code baton.cluster.store=redis}):
 * {@link dev.baton.impl.cluster.ClusterSync} keeps each node's local view in step through a
 * {@link dev.baton.impl.cluster.ClusterStore}, off the request path. See docs/cluster.md.
 */
package dev.baton.impl.cluster;
