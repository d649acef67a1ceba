package dev.baton.record;

import dev.baton.FailureKind;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One HTTP exchange with one target, as it ended. Messages are provider error messages with
 * anything that looks like a key removed.
 *
 * @param target       {@code connection/model}
 * @param connection   the connection's configured name
 * @param provider     the connection's provider kind
 * @param model        the model sent to the provider
 * @param position     the target's position in the chain ({@code primary}, {@code standby_a}, …)
 * @param retry        0 for the first attempt on this target, 1 for its first retry, …
 * @param startedAt    when the attempt started
 * @param latencyMillis how long it took until it ended
 * @param kind         the failure kind, or {@code null} when the attempt served the request
 * @param httpStatus   the provider's status, or 0 when no response arrived
 * @param errorType    the provider's {@code error.type}, or {@code null}
 * @param errorCode    the provider's {@code error.code}, or {@code null}
 * @param message      what went wrong, or {@code null} on success
 * @param retryAfter   the Retry-After the provider sent, or {@code null}
 * @param afterCommit  whether the failure happened after output had reached the caller
 * @param abandoned    the caller went away while this attempt was in flight (it neither served nor failed)
 */
public record AttemptRecord(String target, String connection, String provider, String model, String position,
                            int retry, Instant startedAt, long latencyMillis, FailureKind kind, int httpStatus,
                            String errorType, String errorCode, String message, Duration retryAfter,
                            boolean afterCommit, boolean abandoned) {

    public AttemptRecord {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(startedAt, "startedAt");
    }

    public boolean succeeded() {
        return kind == null && !abandoned;
    }
}
