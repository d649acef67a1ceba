package dev.baton.exception;

import dev.baton.record.RequestRecord;

import java.time.Duration;

/**
 * No target could serve now, for reasons that pass: outages, rate limits, timeouts, ejected
 * connections, a spent retry budget. The same request may succeed later, after
 * {@link #retryAfter()} when present. The type to name in {@code @Retry(retryOn = ...)}.
 */
public final class UpstreamUnavailableException extends UpstreamFailedException {

    /**
     * Baton throws it; an application constructs one only to stand in for Baton in its own tests.
     *
     * @param status     the HTTP status a client sees; {@code type}, {@code code} and {@code param} as OpenAI's
     *                   {@code error} object has them ({@code param} may be {@code null})
     * @param retryAfter when asking again may help, or {@code null}
     * @param record     every attempt made
     */
    public UpstreamUnavailableException(String message, int status, String type, String code, String param,
                                 Duration retryAfter, RequestRecord record) {
        super(message, status, type, code, param, retryAfter, true, record);
    }
}
