package dev.baton.impl.budget;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The tallies in this node's memory: what a budget allows is allowed per node. One lock for every tally: holding and
 * settling are a few additions, far shorter than the provider call they guard, and one lock makes a hold across
 * several accounts atomic without any ordering to get wrong. Thread-safe.
 */
public final class LocalLedger implements SpendLedger {

    /** One account's period: what was spent in it and what calls still running hold. */
    private record Tally(long periodStart, BigDecimal spent, BigDecimal held) {

        BigDecimal committed() {
            return spent.add(held);
        }
    }

    private final Map<String, Tally> tallies = new HashMap<>();

    @Override
    public synchronized CompletableFuture<Hold> hold(List<Account> accounts, BigDecimal amount, Instant at) {
        for (Account account : accounts) {
            Tally tally = current(account, at);
            if (tally.committed().add(amount).compareTo(account.budget().amount()) > 0) {
                return CompletableFuture.completedFuture(new Hold.Refused(account, tally.committed(), amount,
                        account.budget().resetAfter(at)));
            }
        }
        for (Account account : accounts) {
            Tally tally = current(account, at);
            if (tally == tallies.get(account.id())) { // else a period that already ended: nothing to keep
                tallies.put(account.id(), new Tally(tally.periodStart(), tally.spent(), tally.held().add(amount)));
            }
        }
        return CompletableFuture.completedFuture(new Hold.Granted(UUID.randomUUID().toString(), accounts, amount, at,
                true));
    }

    @Override
    public synchronized void settle(Hold.Granted hold, BigDecimal cost) {
        for (Account account : hold.accounts()) {
            Tally tally = tallies.get(account.id());
            if (tally != null && tally.periodStart() == account.periodStart(hold.at())) {
                tallies.put(account.id(), new Tally(tally.periodStart(), tally.spent().add(cost),
                        tally.held().subtract(hold.amount())));
            }
        }
    }

    /** What {@code account} has spent in the period {@code at} falls in (holds not counted). */
    @Override
    public synchronized BigDecimal spent(Account account, Instant at) {
        return current(account, at).spent();
    }

    @Override
    public synchronized void restore(Account account, BigDecimal spent, Instant at) {
        Tally tally = current(account, at);
        if (tally == tallies.get(account.id())) {
            tallies.put(account.id(), new Tally(tally.periodStart(), spent, tally.held()));
        }
    }

    /**
     * Raises what {@code account} has committed (spent and held) in the period {@code at} falls in to at least
     * {@code committed}: what a shared store last said, when this node holds in memory while the store is away.
     */
    public synchronized void atLeast(Account account, BigDecimal committed, Instant at) {
        Tally tally = current(account, at);
        if (tally == tallies.get(account.id()) && tally.committed().compareTo(committed) < 0) {
            tallies.put(account.id(), new Tally(tally.periodStart(), committed.subtract(tally.held()), tally.held()));
        }
    }

    /**
     * The account's tally for the period {@code at} falls in; a new period starts from nothing. A period that already
     * ended (a call dated just before a reset that reaches the ledger after one dated just after it) gets an empty
     * tally that is not kept: that period limits nothing any more, and its amounts must not land in the new one, where
     * their settlement, matched by period, would never take them off again.
     */
    private Tally current(Account account, Instant at) {
        long start = account.periodStart(at);
        Tally tally = tallies.get(account.id());
        if (tally != null && tally.periodStart() > start) {
            return new Tally(start, BigDecimal.ZERO, BigDecimal.ZERO);
        }
        if (tally == null || tally.periodStart() < start) {
            tally = new Tally(start, BigDecimal.ZERO, BigDecimal.ZERO);
            tallies.put(account.id(), tally);
        }
        return tally;
    }
}
