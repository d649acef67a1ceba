package dev.baton.impl.servlet;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What each named key with a budget has spent in its current period. A request is checked before any provider is
 * called and charged its estimated cost when its answer is known, so requests already running when a key reaches its
 * budget still finish (and may take it past the amount); the next one is refused. Thread-safe: one atomic value per
 * key.
 */
final class KeyBudgets {

    /** The spend of one period, starting at {@code start}. */
    private record Period(Instant start, BigDecimal spent) {
    }

    /** Why a key is refused, and when it may spend again. */
    record Exhausted(NamedKey key, BigDecimal spent, Instant resetAt) {
    }

    private final Map<String, AtomicReference<Period>> spend = new HashMap<>();
    private final InstantSource clock;

    KeyBudgets(List<NamedKey> keys, InstantSource clock) {
        this.clock = clock;
        Instant now = clock.instant();
        for (NamedKey key : keys) {
            if (key.budget() != null) {
                spend.put(key.name(), new AtomicReference<>(new Period(key.budget().periodStart(now), BigDecimal.ZERO)));
            }
        }
    }

    /** Now, on this ledger's clock: when a request was admitted, for {@link #charge}. */
    Instant now() {
        return clock.instant();
    }

    /** {@code null} when {@code key} may spend now; otherwise what it spent and when its budget resets. */
    Exhausted check(NamedKey key) {
        if (key == null || key.budget() == null) {
            return null;
        }
        Instant now = clock.instant();
        Period current = current(key, now);
        if (current.spent().compareTo(key.budget().amount()) < 0) {
            return null;
        }
        return new Exhausted(key, current.spent(), key.budget().resetAfter(now));
    }

    /**
     * Adds {@code amount} to the period the request was admitted in. A request admitted in a period that has since
     * ended is charged to nothing: its period's budget no longer limits anything.
     */
    void charge(NamedKey key, BigDecimal amount, Instant admittedAt) {
        if (key == null || key.budget() == null || amount == null || amount.signum() <= 0) {
            return;
        }
        Instant start = key.budget().periodStart(admittedAt);
        spend.get(key.name()).updateAndGet(p -> {
            if (p.start().equals(start)) {
                return new Period(start, p.spent().add(amount));
            }
            return p.start().isBefore(start) ? new Period(start, amount) : p;
        });
    }

    /** What {@code key} has spent in the current period. */
    BigDecimal spent(NamedKey key) {
        return current(key, clock.instant()).spent();
    }

    /** Sets what {@code key} had spent in the current period before this process started (summed from records). */
    void restore(NamedKey key, BigDecimal spent) {
        spend.get(key.name()).set(new Period(key.budget().periodStart(clock.instant()), spent));
    }

    private Period current(NamedKey key, Instant now) {
        Instant start = key.budget().periodStart(now);
        return spend.get(key.name()).updateAndGet(p -> p.start().isBefore(start) ? new Period(start, BigDecimal.ZERO) : p);
    }
}
