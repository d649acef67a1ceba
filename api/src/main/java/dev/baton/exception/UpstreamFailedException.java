package dev.baton.exception;

import dev.baton.record.RequestRecord;

import java.time.Duration;
import java.util.Objects;

/**
 * No target served the request. The status, type and code are those of the failure that
 * mattered most (see {@code docs/design.md}, "final error"); the message names every target
 * tried and why it failed; the record lists every attempt.
 *
 * <p>The two subclasses tell a caller's own retry policy apart by type, which is what
 * MicroProfile Fault Tolerance's {@code retryOn} and {@code abortOn} can test:
 * {@link UpstreamUnavailableException} may succeed later, {@link UpstreamRefusedException} will not.
 */
public abstract sealed class UpstreamFailedException extends FailoverException
        permits UpstreamUnavailableException, UpstreamRefusedException {

    UpstreamFailedException(String message, int status, String type, String code, String param,
                            Duration retryAfter, boolean retryable, RequestRecord record) {
        super(message, status, type, code, param, retryAfter, retryable, Objects.requireNonNull(record, "record"));
    }
}
