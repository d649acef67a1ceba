package dev.baton.impl.engine;

import dev.baton.FailureKind;
import dev.baton.impl.concurrent.Futures;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;

import java.util.concurrent.CancellationException;

/**
 * What an attempt's future or stream failed with, as the engine sees it. The transport classifies every failure of
 * its own (refused, unresolved, timed out, too large) into a {@link ProviderException} before an adapter sees it, so
 * anything else that arrives here is an adapter's own failure. Pure.
 */
final class AttemptFailures {

    private AttemptFailures() {
    }

    /** The classified failure behind {@code error}; an unclassified one counts as a failed connection, named. */
    static ProviderException failure(Throwable error) {
        Throwable t = Futures.unwrap(error);
        if (t instanceof ProviderException e) {
            return e;
        }
        return new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION, "connection failed: "
                + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : " (" + t.getMessage() + ")")), t);
    }

    /** Whether {@code error} is the attempt being cancelled (its caller went away, or the deadline passed). */
    static boolean isCancellation(Throwable error) {
        return Futures.unwrap(error) instanceof CancellationException;
    }
}
