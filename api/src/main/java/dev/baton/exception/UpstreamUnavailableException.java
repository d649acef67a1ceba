package dev.baton.exception;

import dev.baton.record.RequestRecord;

import java.time.Duration;

/**
 * No target could serve now, for reasons that pass: outages, rate limits, timeouts, ejected
 * connections, a spent retry budget. The same request may succeed later, after
 * {@link #retryAfter()} when present. The type to name in {@code @Retry(retryOn = ...)}.
 */
public final class UpstreamUnavailableException extends UpstreamFailedException {

    UpstreamUnavailableException(String message, int status, String type, String code, String param,
                                 Duration retryAfter, RequestRecord record) {
        super(message, status, type, code, param, retryAfter, true, record);
    }
}
