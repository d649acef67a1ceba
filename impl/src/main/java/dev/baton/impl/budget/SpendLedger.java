package dev.baton.impl.budget;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The tallies of what each account spent and holds in its current period. Holding is atomic across the accounts of
 * one call: either every account takes the hold or none does, so concurrent calls can never together pass a budget
 * that each alone fits. Thread-safe.
 */
public interface SpendLedger {

    /**
     * Holds {@code amount} against every account in {@code accounts} (the periods {@code at} falls in), when it fits
     * in each: spent + held + amount ≤ budget.
     */
    CompletableFuture<Hold> hold(List<Account> accounts, BigDecimal amount, Instant at);

    /**
     * Ends {@code hold}: its amount is no longer held, and {@code cost} (0 when nothing was billed) is spent in the
     * periods the hold was made in. A hold made in a period that has since ended changes nothing: that period no
     * longer limits anything. Never blocks.
     */
    void settle(Hold.Granted hold, BigDecimal cost);

    /** What {@code account} had spent in the period {@code at} falls in before this process started. */
    void restore(Account account, BigDecimal spent, Instant at);

    /**
     * What this node knows {@code account} has spent in the period {@code at} falls in, for a gauge: answered from
     * memory, never by asking a shared store, so it never blocks.
     */
    BigDecimal spent(Account account, Instant at);
}
