package dev.baton.impl.http;

import dev.baton.spi.ProviderTransport.ResponseHeaders;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Takes one HTTP response from {@link BatonHttpClient} as it is read: what sits between the socket and
 * {@link HttpExchange}.
 *
 * <p>Calls come one at a time, on the connection's I/O thread, in this order: {@link #headers} once, {@link #body}
 * any number of times, then {@link #end}; or {@link #failed} at any point instead, once. A method that throws fails
 * the exchange ({@link #failed} follows). After the exchange was {@linkplain BatonHttpClient.InFlight#abort()
 * aborted} nothing more arrives but a call already under way. None of these may block.
 */
interface ResponseReader {

    /**
     * The status line and headers arrived. From here on {@code window} paces the body: the connection stops reading
     * once the reader has been handed {@link BatonHttpClient#INITIAL_WINDOW} bytes more than it granted.
     */
    void headers(int status, ResponseHeaders headers, Window window) throws IOException;

    /** The next bytes of the body, readable only during this call. */
    void body(ByteBuffer bytes) throws IOException;

    /** The body was read whole; its connection goes back to the pool. */
    void end();

    /**
     * The exchange broke before its end: no connection, no answer, a broken connection, or an answer that is not
     * HTTP. TLS failures arrive unwrapped, as the {@link javax.net.ssl.SSLException} {@link Transport} classifies.
     */
    void failed(Exception cause);

    /** How a reader lets its connection read on: the socket is read no faster than the reader takes the body. */
    interface Window {

        /** The reader took {@code bytes} more: the connection may read as many more. */
        void grant(int bytes);
    }
}
