package dev.baton.exception;

import dev.baton.record.RequestRecord;

import java.time.Duration;
import java.util.Objects;

/**
 * No target served the request. The status, type and code are those of the failure that
 * mattered most (see {@code docs/design.md}, "final error"); the message names every target
 * tried and why it failed; the record lists every attempt.
 */
public final class UpstreamFailedException extends FailoverException {

    private UpstreamFailedException(String message, int status, String type, String code, String param,
                                    Duration retryAfter, boolean retryable, RequestRecord record) {
        super(message, status, type, code, param, retryAfter, retryable, Objects.requireNonNull(record, "record"));
    }

    public static UpstreamFailedException of(String message, int status, String type, String code, String param,
                                             Duration retryAfter, boolean retryable, RequestRecord record) {
        return new UpstreamFailedException(message, status, type, code, param, retryAfter, retryable, record);
    }
}
