package dev.baton.impl.engine;

import dev.baton.impl.config.Redactor;
import dev.baton.record.AttemptRecord;
import dev.baton.spi.ProviderFailure;

import java.time.Instant;

/**
 * One attempt of a request: which target, the how-many-th same-target retry, whether it is the
 * connection's probe, and when it started (on the wall clock for the record, on the ticker for its
 * latency). Immutable.
 */
record Attempt(Candidate candidate, int retry, boolean probe, Instant startedAt, long startNanos) {

    /** A same-target retry of this attempt, starting now. */
    Attempt retried(Instant now, long nowNanos) {
        return new Attempt(candidate, retry + 1, false, now, nowNanos);
    }

    /**
     * The record of how this attempt ended.
     *
     * @param failure     why it failed; {@code null} when it served or was abandoned
     * @param afterCommit whether output had reached the caller
     * @param abandoned   whether the caller went away before it ended
     * @param redactor    cleans the provider's message, which may echo a key
     */
    AttemptRecord toRecord(long latencyMillis, ProviderFailure failure, boolean afterCommit, boolean abandoned,
                           Redactor redactor) {
        var target = candidate.target();
        // An attempt abandoned before any output has no status to report; one that served (or streamed) has 200.
        int status = failure != null ? failure.httpStatus() : abandoned && !afterCommit ? 0 : 200;
        return new AttemptRecord(candidate.name(), target.connection(), target.provider(), candidate.model(),
                candidate.position(), retry, startedAt, latencyMillis, failure == null ? null : failure.kind(), status,
                failure == null ? null : failure.type(), failure == null ? null : failure.code(),
                failure == null ? null : redactor.clean(failure.message()), failure == null ? null : failure.retryAfter(),
                afterCommit, abandoned);
    }
}
