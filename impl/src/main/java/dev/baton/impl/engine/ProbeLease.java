package dev.baton.impl.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Decides which node sends a due background probe. A node alone always does ({@link #ALONE}); in a
 * cluster one node takes a lease on the probe's round for {@link #ttl()}, so a node that dies
 * mid-probe holds recovery up for at most that long.
 */
public interface ProbeLease {

    ProbeLease ALONE = new ProbeLease() {
        @Override
        public CompletableFuture<Boolean> claim(String connection, Instant round) {
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public Duration ttl() {
            return Duration.ZERO;
        }
    };

    /**
     * @param round when the probe became due: every node that learned the same ejection names the same round
     * @return {@code true} when this node is to probe; a failed future is taken as {@code true} (no cluster, no lease)
     */
    CompletableFuture<Boolean> claim(String connection, Instant round);

    /** How long a lease lasts: longer than a probe takes. */
    Duration ttl();
}
