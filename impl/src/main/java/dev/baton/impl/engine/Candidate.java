package dev.baton.impl.engine;

import dev.baton.impl.balance.Pool;
import dev.baton.spi.ProviderTarget;

/**
 * A target in a request's chain.
 *
 * @param model  the model as the request or route names it ({@code gpt-4o}, {@code anthropic/claude-sonnet-4-5}): what
 *               records, answers, prices and model profiles go by. The provider may know it by another id
 *               ({@link ProviderTarget#model()})
 * @param target the connection and the id sent to it
 * @param index  the position in the configured chain: 0 is {@code primary}, 1 {@code standby_a}, …
 * @param group  the index of the chain's group: the targets tried before any of the next group. A priority
 *               route has one group per model in each tier, a balanced route one per tier; then each
 *               fallback model is one
 * @param pool   what the group balances among, for the balancer's shares
 * @param weight the target's configured weight (1 unless configured)
 */
record Candidate(String model, ProviderTarget target, int index, int group, Pool pool, int weight) {

    /** A candidate of a model's connections, weight 1. */
    Candidate(String model, ProviderTarget target, int index, int group) {
        this(model, target, index, group, Pool.model(model), 1);
    }

    /** {@code primary} for index 0, then {@code standby_a}, {@code standby_b}, … {@code standby_z}, {@code standby_27}, … */
    String position() {
        if (index == 0) {
            return "primary";
        }
        return index <= 26 ? "standby_" + (char) ('a' + index - 1) : "standby_" + index;
    }

    /** {@code connection/model}, as a route names it. */
    String name() {
        return target.connection() + "/" + model;
    }
}
