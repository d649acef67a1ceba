package dev.baton.impl.budget;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** What a {@link SpendLedger} answered when asked to hold an amount against some accounts. */
public sealed interface Hold {

    /**
     * The amount is held against every account, in the periods {@code at} falls in, until it is settled.
     *
     * @param id       unique per hold: a shared store keeps each hold under it
     * @param local    whether the hold lives in this node's memory (a shared ledger falls back to it)
     */
    record Granted(String id, List<Account> accounts, BigDecimal amount, Instant at, boolean local) implements Hold {

        public Granted {
            accounts = List.copyOf(accounts);
        }
    }

    /**
     * Nothing is held: {@code account} has {@code committed} spent or held in its period, and {@code asked} more does
     * not fit in its budget. Its budget is whole again at {@code resetAt}.
     */
    record Refused(Account account, BigDecimal committed, BigDecimal asked, Instant resetAt) implements Hold {
    }
}
