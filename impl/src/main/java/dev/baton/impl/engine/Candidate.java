package dev.baton.impl.engine;

import dev.baton.impl.balance.Pool;
import dev.baton.spi.ProviderTarget;

/**
 * A target in a request's chain.
 *
 * @param target the connection and model
 * @param index  the position in the configured chain: 0 is {@code primary}, 1 {@code standby_a}, …
 * @param group  the index of the chain's group: the targets tried before any of the next group. A priority
 *               route has one group per model in each tier, a balanced route one per tier; then each
 *               fallback model is one
 * @param pool   what the group balances among, for the balancer's shares
 * @param weight the target's configured weight (1 unless configured)
 */
record Candidate(ProviderTarget target, int index, int group, Pool pool, int weight) {

    /** A candidate of a model's connections, weight 1. */
    Candidate(ProviderTarget target, int index, int group) {
        this(target, index, group, Pool.model(target.model()), 1);
    }

    /** {@code primary} for index 0, then {@code standby_a}, {@code standby_b}, … {@code standby_z}, {@code standby_27}, … */
    String position() {
        if (index == 0) {
            return "primary";
        }
        return index <= 26 ? "standby_" + (char) ('a' + index - 1) : "standby_" + index;
    }

    String name() {
        return target.name();
    }
}
