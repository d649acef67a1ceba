package dev.baton.impl.http;

import dev.baton.FailureKind;
import dev.baton.spi.ProviderFailure;
import io.netty.channel.ConnectTimeoutException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLHandshakeException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the client fails with, as the engine sees it: the kind and the words of each transport failure. */
class TransportTest {

    private static void assertFailure(FailureKind kind, String message, Throwable error) {
        ProviderFailure failure = Transport.failure(error).failure();
        assertEquals(kind, failure.kind());
        assertEquals(message, failure.message());
    }

    @Test
    void nettysConnectTimeoutIsAConnectionFailureNotARefusal() {
        // Netty's exception extends ConnectException: the timeout must be told apart from a refusal.
        assertFailure(FailureKind.CONNECTION, "connect timed out",
                new ConnectTimeoutException("connection timed out after 2000 ms: /192.0.2.1:443"));
    }

    @Test
    void eachWayOfNotReachingTheHostIsNamed() {
        assertFailure(FailureKind.CONNECTION, "connection refused", new ConnectException("Connection refused"));
        assertFailure(FailureKind.CONNECTION, "host could not be resolved", new UnknownHostException("nowhere"));
        assertFailure(FailureKind.CONNECTION, "TLS handshake failed", new SSLHandshakeException("no subject name"));
        assertFailure(FailureKind.CONNECTION, "connection failed: IOException (The provider closed the connection)",
                new CompletionException(new IOException("The provider closed the connection")));
    }

    @Test
    void aBodyPastTheLimitIsAServerErrorAndNotAnUnreachableHost() {
        var tooLarge = new BoundedBody.TooLargeException(100);

        assertFailure(FailureKind.SERVER_ERROR, "the provider's response is larger than 100 bytes", tooLarge);
        assertFalse(Transport.unreachable(tooLarge));
    }

    @Test
    void noHeadersInTimeIsATimeoutNamingIt() {
        ProviderFailure failure = Transport.headersTimeout(Duration.ofMillis(300)).failure();

        assertEquals(FailureKind.TIMEOUT, failure.kind());
        assertEquals("no response headers within 300ms", failure.message());
    }

    @Test
    void onlyIoFailuresMakeAHostUnreachable() {
        assertTrue(Transport.unreachable(new ConnectTimeoutException("timed out")));
        assertTrue(Transport.unreachable(new CompletionException(new ConnectException("refused"))));
        assertFalse(Transport.unreachable(new CancellationException()));
        assertFalse(Transport.unreachable(new IllegalStateException("an adapter's bug")));
    }
}
