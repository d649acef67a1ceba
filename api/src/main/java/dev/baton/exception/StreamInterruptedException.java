package dev.baton.exception;

import dev.baton.record.RequestRecord;

import java.util.Objects;

/**
 * A stream failed after its first output reached the caller. Nothing was restarted: the partial
 * answer is incomplete and should be discarded or shown as such. Re-sending the whole request is
 * allowed and runs the full failover chain again.
 */
public final class StreamInterruptedException extends FailoverException {

    private StreamInterruptedException(String message, String code, RequestRecord record) {
        super(message, 502, "server_error", code, null, null, true, Objects.requireNonNull(record, "record"));
    }

    /**
     * Baton ends a stream with it; an application constructs one only to stand in for Baton in its own tests.
     *
     * @param code {@code stream_interrupted} or {@code stream_idle_timeout}
     */
    public static StreamInterruptedException of(String message, String code, RequestRecord record) {
        return new StreamInterruptedException(message, code, record);
    }
}
