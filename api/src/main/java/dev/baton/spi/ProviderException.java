package dev.baton.spi;

import java.util.Objects;

/**
 * How an adapter fails an attempt. The engine turns it into a decision and, in the end, into a
 * {@link dev.baton.exception.FailoverException}; it never reaches callers.
 */
public final class ProviderException extends RuntimeException {

    private final transient ProviderFailure failure;

    public ProviderException(ProviderFailure failure) {
        this(failure, null);
    }

    public ProviderException(ProviderFailure failure, Throwable cause) {
        // No stack trace: these are expected outcomes, created often during an outage.
        super(Objects.requireNonNull(failure, "failure").message(), cause, false, false);
        this.failure = failure;
    }

    public ProviderFailure failure() {
        return failure;
    }
}
