package dev.baton.impl.translate;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;

/** An internal helper shared by Baton's own stream translators: a provider's failure as it may leave the adapter. */
public final class ProviderFailures {

    private ProviderFailures() {
    }

    /** {@code e} with the provider's own words kept, but never a credential they might quote. */
    public static ProviderException redacted(ProviderException e, AdapterContext context) {
        ProviderFailure f = e.failure();
        return new ProviderException(new ProviderFailure(f.kind(), f.httpStatus(), f.type(), f.code(),
                context.redact(f.message()), f.retryAfter()));
    }
}
