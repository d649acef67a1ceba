package dev.baton.impl.translate;

import dev.baton.FailureKind;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTransport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.InstantSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProviderFailuresTest {

    /** Redacts one secret, as the configured redactor would. */
    private static final AdapterContext CONTEXT = new AdapterContext() {
        @Override
        public ProviderTransport transport() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String redact(String text) {
            return text.replace("sk-secret", "[redacted]");
        }

        @Override
        public InstantSource clock() {
            throw new UnsupportedOperationException();
        }
    };

    @Test
    void keepsTheFailureButRedactsTheProvidersWords() {
        ProviderFailure failure = new ProviderFailure(FailureKind.RATE_LIMIT, 429, "throttling", "slow_down",
                "key sk-secret is throttled", Duration.ofSeconds(3));

        ProviderFailure redacted = ProviderFailures.redacted(new ProviderException(failure), CONTEXT).failure();

        assertEquals(new ProviderFailure(FailureKind.RATE_LIMIT, 429, "throttling", "slow_down",
                "key [redacted] is throttled", Duration.ofSeconds(3)), redacted);
    }
}
