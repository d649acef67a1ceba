package dev.baton.impl.http;

import dev.baton.FailureKind;
import dev.baton.impl.concurrent.Futures;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import io.netty.channel.ConnectTimeoutException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import javax.net.ssl.SSLException;

/** Classifies what the HTTP client throws when no usable response arrived. Pure. */
public final class Transport {

    private Transport() {
    }

    public static ProviderException failure(Throwable error) {
        Throwable t = Futures.unwrap(error);
        if (t instanceof ProviderException e) {
            return e;
        }
        if (t instanceof BoundedBody.TooLargeException) {
            return new ProviderException(ProviderFailure.transport(FailureKind.SERVER_ERROR, t.getMessage()), t);
        }
        String what;
        if (t instanceof ConnectTimeoutException) { // before ConnectException, which it extends
            what = "connect timed out";
        } else if (t instanceof ConnectException) {
            what = "connection refused";
        } else if (t instanceof UnknownHostException) {
            what = "host could not be resolved";
        } else if (t instanceof SSLException) {
            what = "TLS handshake failed";
        } else {
            what = "connection failed: " + t.getClass().getSimpleName()
                    + (t.getMessage() == null ? "" : " (" + t.getMessage() + ")");
        }
        return new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION, what), t);
    }

    /** The failure of an exchange that saw no response headers within {@code headersTimeout}. */
    static ProviderException headersTimeout(Duration headersTimeout) {
        return new ProviderException(ProviderFailure.transport(FailureKind.TIMEOUT,
                "no response headers within " + headersTimeout.toMillis() + "ms"));
    }

    /**
     * Whether {@code error} says the host could not be reached at all: refused, unresolved, connect timeout, TLS
     * handshake, or a reset before any response. Not a headers timeout (the host was reached and is silent), not a
     * cancellation, not a failure an adapter or body reader raised. The caller must also know that no response
     * status arrived; this looks at the exception only.
     */
    public static boolean unreachable(Throwable error) {
        Throwable t = Futures.unwrap(error);
        return t instanceof IOException && !(t instanceof BoundedBody.TooLargeException);
    }
}
