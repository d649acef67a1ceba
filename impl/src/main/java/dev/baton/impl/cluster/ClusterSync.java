package dev.baton.impl.cluster;

import dev.baton.impl.engine.EngineObserver;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.engine.ProbeLease;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.health.HealthListener;
import dev.baton.record.RequestRecord;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps this node's view of every connection in step with the cluster's, without ever putting the
 * cluster store in a request's way. The request path reads only the local {@link ConnectionHealth};
 * each local change (ejected, parked, restored, a probe's outcome) is written to the store
 * asynchronously, and each other node's change arrives on the store's channel and is
 * {@linkplain ConnectionHealth#adopt adopted}. The newest change of a connection wins: one older than
 * what this node last did or learned about it is ignored.
 *
 * <p>While the store cannot be reached each node goes on with its own state (logged once per
 * outage, {@link #connected()} false); when it is back, the node re-syncs: it adopts what changed
 * elsewhere meanwhile and shares what changed here.
 *
 * <p>Also the {@link ProbeLease} of the cluster: one node sends each round's background probe.
 * Thread-safe.
 */
public final class ClusterSync implements HealthListener, EngineObserver, ProbeLease, AutoCloseable {

    /** Longer than a probe may take (10 s) with a margin: a node that dies mid-probe delays the next one this long. */
    static final Duration PROBE_LEASE = Duration.ofSeconds(15);
    /** Attempts at a probe lease before probing without one. */
    static final int LEASE_TRIES = 5;
    /** Changes kept for the operator's cluster view. */
    static final int HISTORY = 50;
    private static final System.Logger LOG = System.getLogger("dev.baton.cluster");

    private final ClusterStore store;
    private final String node;
    private final InstantSource clock;
    /** Set while a change from another node is applied: the listeners it triggers must not share it back. */
    private final ThreadLocal<Boolean> adopting = ThreadLocal.withInitial(() -> false);
    /** The last change this node made or learned of each connection. */
    private final Map<String, Stamp> lastChange = new ConcurrentHashMap<>();
    /** Connections changed here while the store was unreachable: shared when it is back. */
    private final Map<String, Boolean> unshared = new ConcurrentHashMap<>();
    private final Deque<ClusterChange> history = new ArrayDeque<>();
    private final AtomicLong sequence = new AtomicLong();
    private final Staleness staleness = new Staleness();
    private volatile FailoverEngine engine;
    private volatile Instant connectedSince;
    private volatile Instant disconnectedSince;
    private volatile Instant lastResync;

    public ClusterSync(ClusterStore store, String node, InstantSource clock) {
        this.store = store;
        this.node = node;
        this.clock = clock;
    }

    /** Starts sharing {@code engine}'s connection states; the engine must have this as health listener and observer. */
    public void attach(FailoverEngine engine) {
        this.engine = engine;
        engine.shareProbes(this);
        disconnectedSince = clock.instant();
        store.start(this::received, this::connectivity);
    }

    public boolean connected() {
        return store.connected();
    }

    public String node() {
        return node;
    }

    public ClusterStore store() {
        return store;
    }

    // ---- this node's changes, shared ----

    @Override
    public void ejected(String connection, Duration coolOff, String cause) {
        share(connection, "ejected");
    }

    @Override
    public void parked(String connection, Instant until, String cause) {
        share(connection, "parked");
    }

    @Override
    public void restored(String connection) {
        share(connection, "restored");
    }

    /** A failed background probe moves the next one without an ejection event: the others must learn the new time. */
    @Override
    public void probed(RequestRecord probe) {
        if (!probe.attempts().isEmpty()) {
            share(probe.attempts().get(0).connection(), "probed");
        }
    }

    private void share(String connection, String event) {
        FailoverEngine e = engine;
        if (adopting.get() || e == null) {
            return;
        }
        Instant at = Instant.ofEpochMilli(clock.millis()); // as it travels
        ConnectionHealth.Shared state = e.health().of(connection).shared();
        ClusterChange change = new ClusterChange(node, sequence.incrementAndGet(), at, connection, event, state, null);
        lastChange.put(connection, Stamp.of(change));
        remember(change);
        if (!store.connected()) {
            unshared.put(connection, true);
            return;
        }
        store.share(connection, ClusterMessages.write(change)).whenComplete((ok, error) -> {
            if (error != null) {
                unshared.put(connection, true); // shared again when the store is back
            }
        });
    }

    // ---- other nodes' changes, adopted ----

    /** A message from the channel. */
    void received(String message) {
        received(message, true);
    }

    /**
     * @param live from the channel (its lag counts in the staleness), or a stored state read by a re-sync (which may
     *             be hours old)
     */
    private void received(String message, boolean live) {
        ClusterChange change;
        try {
            change = ClusterMessages.read(message);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "ignored a cluster message that could not be read: {0}", e.toString());
            return;
        }
        FailoverEngine e = engine;
        if (e == null || change.node().equals(node) || e.health().find(change.connection()).isEmpty()) {
            return; // our own, or a connection this node does not have
        }
        Stamp previous = lastChange.get(change.connection());
        if (previous != null && !previous.before(change)) {
            return; // older than what this node already did or learned
        }
        lastChange.put(change.connection(), Stamp.of(change));
        Instant learnedAt = clock.instant();
        boolean moved;
        adopting.set(true);
        try {
            moved = e.health().of(change.connection()).adopt(change.state());
        } finally {
            adopting.remove();
        }
        if (moved) {
            e.probeMoved(change.connection());
        }
        long lagMillis = Math.max(0, Duration.between(change.at(), learnedAt).toMillis());
        if (live) {
            staleness.add(lagMillis);
        }
        remember(change.learned(learnedAt));
        LOG.log(Level.DEBUG, "learned from {0}: connection {1} {2} ({3} ms after)", change.node(), change.connection(),
                change.event(), lagMillis);
    }

    private void connectivity(boolean up) {
        Instant now = clock.instant();
        if (up) {
            Instant down = disconnectedSince;
            connectedSince = now;
            LOG.log(Level.INFO, "cluster store {0} reached by node {1}{2}; re-syncing connection states",
                    store.describe(), node, down == null ? "" : " after " + Duration.between(down, now).toMillis() + " ms");
            resync();
        } else {
            disconnectedSince = now;
            connectedSince = null;
            LOG.log(Level.WARNING, "cluster store {0} unreachable from node {1}; each node serves on its own state "
                    + "until it is back", store.describe(), node);
        }
    }

    /**
     * Adopts what other nodes changed while apart, then shares what this node changed meanwhile, and its own last
     * change of any connection the store lost (a Redis restarted empty), so that a node joining later learns it too.
     */
    private void resync() {
        store.shared().whenComplete((states, error) -> {
            if (error != null) {
                LOG.log(Level.DEBUG, "re-sync deferred: {0}", error.toString());
                return; // the next connectivity change tries again
            }
            states.values().forEach(m -> received(m, false));
            lastChange.forEach((connection, stamp) -> {
                if (stamp.node().equals(node) && !states.containsKey(connection)) {
                    unshared.put(connection, true);
                }
            });
            for (String connection : List.copyOf(unshared.keySet())) {
                unshared.remove(connection);
                share(connection, "resync");
            }
            lastResync = clock.instant();
        });
    }

    // ---- the probe lease ----

    @Override
    public CompletableFuture<Boolean> claim(String connection, Instant round) {
        return claim("probe:" + connection + ":" + round.toEpochMilli(), LEASE_TRIES);
    }

    /**
     * A lease is not on any request's path, so a slow answer is tried again rather than taken as an outage (which
     * would let two nodes probe); a store that is really down soon reports itself disconnected.
     */
    private CompletableFuture<Boolean> claim(String key, int tries) {
        if (!store.connected()) {
            return CompletableFuture.completedFuture(true); // alone for now: probe as a single node does
        }
        return store.setIfAbsent(key, node, PROBE_LEASE).handle((holder, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(holder == null || holder.equals(node)); // a retry finds its own
            }
            return tries > 1 ? claim(key, tries - 1) : CompletableFuture.completedFuture(true);
        }).thenCompose(c -> c);
    }

    @Override
    public Duration ttl() {
        return PROBE_LEASE;
    }

    // ---- the operator's view ----

    private void remember(ClusterChange change) {
        synchronized (history) {
            history.addFirst(change);
            while (history.size() > HISTORY) {
                history.removeLast();
            }
        }
    }

    /** What the operator endpoint shows: this node, the store, and the last changes shared and learned. */
    public View view() {
        List<ClusterChange> changes;
        synchronized (history) {
            changes = new ArrayList<>(history);
        }
        return new View(node, store.describe(), store.connected(), connectedSince, disconnectedSince, lastResync,
                staleness.snapshot(), changes);
    }

    /**
     * @param node              this node's name
     * @param store             the store's kind and address (no password)
     * @param connected         whether the store answers now
     * @param connectedSince    when it last became reachable, or {@code null} while it is not
     * @param disconnectedSince when it last became unreachable (or when this node started), or {@code null}
     * @param lastResync        when this node last re-synced, or {@code null}
     * @param staleness         how long other nodes' changes took to arrive here
     * @param changes           the last changes, newest first: this node's ({@code learnedAt} null) and learned ones
     */
    public record View(String node, String store, boolean connected, Instant connectedSince, Instant disconnectedSince,
                       Instant lastResync, Staleness.Figures staleness, List<ClusterChange> changes) {
    }

    /**
     * Orders the changes of one connection: one node's by its sequence, different nodes' by their time (the
     * later arrival wins a tie). Nodes' clocks are assumed in step (NTP) to well under the staleness.
     */
    private record Stamp(String node, long sequence, Instant at) {

        static Stamp of(ClusterChange c) {
            return new Stamp(c.node(), c.sequence(), c.at());
        }

        boolean before(ClusterChange c) {
            return node.equals(c.node()) ? sequence < c.sequence() : !at.isAfter(c.at());
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
