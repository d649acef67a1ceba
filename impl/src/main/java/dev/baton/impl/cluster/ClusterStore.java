package dev.baton.impl.cluster;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Where the nodes of a cluster meet: a shared table of connection states with a channel announcing
 * each change, and short-lived keys for probe leases and idempotency claims. The one implementation is on Redis, in
 * the module {@code baton-cluster-redis} ({@link ClusterStoreProvider}); another store (a database, a data grid)
 * implements these few operations.
 *
 * <p>Nothing here may block its caller: every operation returns at once and completes (or fails)
 * within the store's timeout. A store that cannot be reached fails its futures; the caller goes on
 * with its own local state. Keys are given without the configured prefix, which the store adds.
 */
public interface ClusterStore extends AutoCloseable {

    /**
     * Starts connecting in the background (a store that is down does not fail this call) and keeps
     * reconnecting until {@link #close()}.
     *
     * @param messages     every message {@link #share}d by any node, this one included, as it arrives
     * @param connectivity told {@code true} each time the store becomes reachable (after which the caller
     *                     re-syncs) and {@code false} each time it stops being so
     */
    void start(Consumer<String> messages, Consumer<Boolean> connectivity);

    /** Whether the store answers now. */
    boolean connected();

    /** Records {@code message} as {@code connection}'s shared state and announces it to every node. Never blocks. */
    CompletableFuture<Void> share(String connection, String message);

    /** Every connection's last shared state, by connection name. */
    CompletableFuture<Map<String, String>> shared();

    /**
     * Sets {@code key} to {@code value} for {@code ttl} unless it exists.
     *
     * @return {@code null} when this call set it, else the value already there
     */
    CompletableFuture<String> setIfAbsent(String key, String value, Duration ttl);

    /** The value of {@code key}, or {@code null}. */
    CompletableFuture<String> get(String key);

    /** Sets {@code key} to {@code value} for {@code ttl}, whatever was there. */
    CompletableFuture<Void> put(String key, String value, Duration ttl);

    CompletableFuture<Void> delete(String key);

    /**
     * One budget period's tally: {@code key} (without the prefix) holds what was spent and what calls in flight hold;
     * {@code limit} is the budget; the key lives {@code ttl} from now, past the period's end.
     */
    record Tally(String key, BigDecimal limit, Duration ttl) {
    }

    /**
     * What a hold found: each tally's spent + held before it, in the order asked (up to the one it did not fit in),
     * and the index of the first tally it did not fit in, or -1 when it was held in all.
     */
    record Counted(int refused, List<BigDecimal> committed) {

        public Counted {
            committed = List.copyOf(committed);
        }

        public boolean held() {
            return refused < 0;
        }
    }

    /**
     * Atomically, over every tally: forgets holds whose time ran out, and when each tally's spent + held +
     * {@code amount} is within its limit, holds {@code amount} in each under {@code id} until {@code until} (when a
     * node that died holding it no longer holds it); otherwise holds nothing.
     *
     * @return completes with what each tally had committed, and whether the amount was held
     */
    CompletableFuture<Counted> hold(List<Tally> tallies, String id, BigDecimal amount, Instant now, Instant until);

    /** Ends the hold {@code id} in every tally and adds {@code cost} to what each spent. */
    CompletableFuture<Void> settle(List<Tally> tallies, String id, BigDecimal cost);

    /** What the cluster view shows of this store: kind and address, never a password. */
    String describe();

    @Override
    void close();
}
