package dev.baton.impl.cluster;

import dev.baton.impl.health.ConnectionHealth;

import java.time.Instant;

/**
 * One change of a connection's state as the cluster sees it.
 *
 * @param node       the node where it happened
 * @param sequence   that node's count of its changes
 * @param at         when it happened, on that node's clock
 * @param connection the connection
 * @param event      {@code ejected}, {@code parked}, {@code restored}, {@code probed} (a probe's outcome) or
 *                   {@code resync} (shared again after the store was unreachable)
 * @param state      the connection's shared state after it
 * @param learnedAt  when this node learned it; {@code null} for this node's own changes
 */
public record ClusterChange(String node, long sequence, Instant at, String connection, String event,
                            ConnectionHealth.Shared state, Instant learnedAt) {

    ClusterChange learned(Instant when) {
        return new ClusterChange(node, sequence, at, connection, event, state, when);
    }
}
