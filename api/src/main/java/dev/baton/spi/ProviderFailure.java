package dev.baton.spi;

import dev.baton.FailureKind;

import java.time.Duration;
import java.util.Objects;

/**
 * A classified failed attempt, as an adapter reports it.
 *
 * @param kind       the failure kind, from the adapter's classification table
 * @param httpStatus the provider's status, or 0 when no response arrived
 * @param type       the provider's {@code error.type}, or {@code null}
 * @param code       the provider's {@code error.code}, or {@code null}
 * @param message    a short description without credentials (adapters must not echo keys)
 * @param retryAfter the provider's Retry-After, or {@code null}
 */
public record ProviderFailure(FailureKind kind, int httpStatus, String type, String code, String message,
                              Duration retryAfter) {

    public ProviderFailure {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    /** A failure with no HTTP response: connection problems and timeouts. */
    public static ProviderFailure transport(FailureKind kind, String message) {
        return new ProviderFailure(kind, 0, null, null, message, null);
    }
}
