package dev.baton.exception;

import dev.baton.record.RequestRecord;
import jakarta.ejb.ApplicationException;

import java.time.Duration;
import java.util.Optional;

/**
 * The root of Baton's request failures. It carries what an OpenAI-compatible client would see
 * (status, error type, code, param), whether a later retry can help and when, and the record of
 * the attempts when a provider was called.
 *
 * <p>{@link #retryable()} is the signal for a caller's own retry policy (for example
 * MicroProfile Fault Tolerance {@code @Retry(abortOn = ...)}): Baton already failed over, so only
 * retryable failures are worth asking again, and not before {@link #retryAfter()}. The same split
 * is made by type, for annotations that can only name classes: {@link RequestRejectedException}
 * and {@link UpstreamRefusedException} never succeed on a retry, {@link UpstreamUnavailableException}
 * may.
 *
 * <p>For EJB callers these are application exceptions: they reach the caller as thrown, not
 * wrapped in {@code EJBException}, and the bean instance is kept. The container's transaction, if
 * any, is marked for rollback.
 */
@ApplicationException(inherited = true, rollback = true)
public abstract sealed class FailoverException extends RuntimeException
        permits RequestRejectedException, UpstreamFailedException, StreamInterruptedException {

    private final int httpStatus;
    private final String type;
    private final String code;
    private final String param;
    private final Duration retryAfter;
    private final boolean retryable;
    private final transient RequestRecord record;

    FailoverException(String message, int httpStatus, String type, String code, String param,
                      Duration retryAfter, boolean retryable, RequestRecord record) {
        super(message, null, false, false);
        this.httpStatus = httpStatus;
        this.type = type;
        this.code = code;
        this.param = param;
        this.retryAfter = retryAfter;
        this.retryable = retryable;
        this.record = record;
    }

    /** The HTTP status an OpenAI-compatible client sees for this failure. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The OpenAI-style {@code error.type}, for example {@code rate_limit_error}. */
    public String type() {
        return type;
    }

    /** The OpenAI-style {@code error.code}, for example {@code provider_rate_limited}. */
    public String code() {
        return code;
    }

    /** The request field at fault, or {@code null}. */
    public String param() {
        return param;
    }

    /** When a retry may help, how long to wait before it. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** Whether sending the same request again later can succeed. */
    public boolean retryable() {
        return retryable;
    }

    /** The record of the request, when it reached the point of calling providers. */
    public Optional<RequestRecord> record() {
        return Optional.ofNullable(record);
    }

    /** The request id, when the request was admitted. */
    public Optional<String> requestId() {
        return record().map(RequestRecord::id);
    }
}
