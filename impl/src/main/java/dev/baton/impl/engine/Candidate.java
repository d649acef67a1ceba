package dev.baton.impl.engine;

import dev.baton.spi.ProviderTarget;

/**
 * A target in a request's chain.
 *
 * @param target the connection and model
 * @param index  the position in the configured chain: 0 is {@code primary}, 1 {@code standby_a}, …
 * @param group  the index of the chain's model group (0 for the requested model, then each fallback)
 */
record Candidate(ProviderTarget target, int index, int group) {

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
