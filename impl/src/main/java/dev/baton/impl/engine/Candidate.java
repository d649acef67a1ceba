package dev.baton.impl.engine;

import dev.baton.ServedBy;
import dev.baton.spi.ProviderTarget;

/**
 * A target in a request's chain.
 *
 * @param target the connection and model
 * @param index  the position in the configured chain: 0 is {@code primary}, 1 {@code standby_a}, …
 * @param group  the index of the chain's model group (0 for the requested model, then each fallback)
 */
record Candidate(ProviderTarget target, int index, int group) {

    String position() {
        return ServedBy.position(index);
    }

    String name() {
        return target.name();
    }
}
