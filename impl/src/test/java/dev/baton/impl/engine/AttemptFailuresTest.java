package dev.baton.impl.engine;

import dev.baton.FailureKind;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AttemptFailuresTest {

    @Test
    void aClassifiedFailureArrivesAsTheTransportOrAdapterClassifiedIt() {
        ProviderException rateLimited = new ProviderException(new ProviderFailure(FailureKind.RATE_LIMIT, 429, null,
                null, "slow down", null));

        assertSame(rateLimited, AttemptFailures.failure(new CompletionException(new ExecutionException(rateLimited))));
    }

    @Test
    void anAdaptersOwnFailureIsAFailedConnectionNamingIt() {
        ProviderException failure = AttemptFailures.failure(new CompletionException(
                new IllegalStateException("no such field")));

        assertEquals(FailureKind.CONNECTION, failure.failure().kind());
        assertEquals(0, failure.failure().httpStatus());
        assertEquals("connection failed: IllegalStateException (no such field)", failure.failure().message());
        assertEquals("connection failed: NullPointerException",
                AttemptFailures.failure(new NullPointerException()).failure().message());
    }

    @Test
    void onlyACancellationIsACancellation() {
        assertTrue(AttemptFailures.isCancellation(new CompletionException(new CancellationException())));
        assertFalse(AttemptFailures.isCancellation(new IllegalStateException("a bug")));
    }
}
