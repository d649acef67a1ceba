package dev.baton.impl.config;

import java.util.Arrays;
import java.util.Locale;

/**
 * How a request's plan orders the usable targets of one tier before failover works through them
 * ({@code baton.routes.<name>.balance}). Whatever the strategy, the targets after the first follow
 * in the strategy's order, then the parked and ejected ones, then the next tier.
 */
public enum Balance {

    /** Configured order: the first usable target takes all the traffic (the default). */
    PRIORITY,
    /** Static shares: a random pick in proportion to each target's {@code weight}. */
    WEIGHTED,
    /** Shares recomputed every few seconds from recent error rate and latency, starting from the weights. */
    ADAPTIVE,
    /** The target with the fewest attempts in flight. */
    LEAST_BUSY,
    /** The caller's session key always lands on the same target while it is usable (rendezvous hashing). */
    STICKY;

    /** The name as configured: {@code least-busy}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether per-target weights mean anything under this strategy. */
    public boolean usesWeights() {
        return this == WEIGHTED || this == ADAPTIVE || this == STICKY;
    }

    /** The strategy named {@code raw}; the exception's message is the problem to report. */
    public static Balance parse(String raw) {
        String name = raw.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(b -> b.wireName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("'" + raw + "' is not one of "
                        + Arrays.stream(values()).map(Balance::wireName).toList()));
    }
}
