package dev.baton.impl.budget;

import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.log.RateLimitedLog;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The tallies in the cluster store, so that a budget holds across every node: one atomic operation per hold and per
 * settlement. A hold lives at most {@link #LEASE} in the store, so a node that dies with calls in flight frees their
 * holds after it. While the store cannot be reached, holds are taken in this node's memory instead (and logged),
 * starting from what the store last said each budget had committed: each node then spends at most what was left, and
 * refusing every call while the store is down would be worse. Thread-safe.
 */
public final class SharedLedger implements SpendLedger {

    /** Longer than any call can run (the longest deadline plus a stream's longest run, by default 15 min). */
    static final Duration LEASE = Duration.ofHours(1);
    private static final System.Logger LOG = System.getLogger(SharedLedger.class.getName());
    private static final RateLimitedLog UNREACHABLE = new RateLimitedLog(LOG, 60, TimeUnit.SECONDS);

    /** What the store last said an account had committed in a period, for holds in memory while it is away. */
    private record Seen(long periodStart, BigDecimal committed) {
    }

    private final ClusterStore store;
    private final LocalLedger local = new LocalLedger();
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    public SharedLedger(ClusterStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<Hold> hold(List<Account> accounts, BigDecimal amount, Instant at) {
        if (!store.connected()) {
            return holdLocally(accounts, amount, at);
        }
        String id = UUID.randomUUID().toString();
        List<ClusterStore.Tally> tallies = tallies(accounts, at);
        return store.hold(tallies, id, amount, at, at.plus(LEASE)).handle((counted, error) -> {
            if (error != null) {
                // A script that timed out may still run once Redis answers: released right behind it on the same
                // connection, so that Redis does not keep for a whole lease what this node holds in memory instead.
                store.settle(tallies, id, BigDecimal.ZERO);
                UNREACHABLE.warn(n -> "budgets are held on this node only: the cluster store did not answer ("
                        + error + ")" + (n > 1 ? "; " + n + " holds since the last message" : ""));
                return holdLocally(accounts, amount, at).join(); // in memory: already complete
            }
            for (int i = 0; i < counted.committed().size(); i++) {
                BigDecimal after = counted.committed().get(i).add(counted.held() ? amount : BigDecimal.ZERO);
                seen.put(accounts.get(i).id(), new Seen(accounts.get(i).periodStart(at), after));
            }
            if (counted.held()) {
                return new Hold.Granted(id, accounts, amount, at, false);
            }
            Account account = accounts.get(counted.refused());
            return new Hold.Refused(account, counted.committed().get(counted.refused()), amount,
                    account.budget().resetAfter(at));
        });
    }

    /** A hold in memory, on top of what the store last said was committed in the period. */
    private CompletableFuture<Hold> holdLocally(List<Account> accounts, BigDecimal amount, Instant at) {
        for (Account account : accounts) {
            Seen last = seen.get(account.id());
            if (last != null && last.periodStart() == account.periodStart(at)) {
                local.atLeast(account, last.committed(), at);
            }
        }
        return local.hold(accounts, amount, at);
    }

    @Override
    public void settle(Hold.Granted hold, BigDecimal cost) {
        if (hold.local()) {
            local.settle(hold, cost);
            return;
        }
        store.settle(tallies(hold.accounts(), hold.at()), hold.id(), cost).whenComplete((ok, error) -> {
            if (error != null) {
                UNREACHABLE.warn(n -> "a budget hold was not settled in the cluster store (" + error + "); it"
                        + " lapses within " + LEASE.toMinutes() + " min" + (n > 1 ? "; " + n + " since the last message"
                        : ""));
            }
        });
    }

    /**
     * What the store said {@code account} had committed (spent and held, by every node) when this node last held
     * against it in the period {@code at} falls in, or what this node spent in memory while the store was away,
     * whichever is more. Not a question to the store: it lags what other nodes spent since this node's last hold, and
     * counts holds not yet settled as spent.
     */
    @Override
    public BigDecimal spent(Account account, Instant at) {
        BigDecimal here = local.spent(account, at);
        Seen last = seen.get(account.id());
        return last != null && last.periodStart() == account.periodStart(at) && last.committed().compareTo(here) > 0
                ? last.committed() : here;
    }

    /** Nothing to restore: the store keeps the tallies while nodes restart. */
    @Override
    public void restore(Account account, BigDecimal spent, Instant at) {
    }

    /** {@code budget:key:alice:<period start>}: one tally per period, living until the period and a lease are over. */
    private static List<ClusterStore.Tally> tallies(List<Account> accounts, Instant at) {
        return accounts.stream().map(a -> {
            Instant end = a.budget().resetAfter(at);
            Duration ttl = Duration.between(at, end).plus(LEASE);
            return new ClusterStore.Tally("budget:" + a.id() + ":" + a.periodStart(at), a.budget().amount(), ttl);
        }).toList();
    }
}
