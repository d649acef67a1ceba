package dev.baton.impl.http;

import dev.baton.impl.concurrent.Scheduler;
import dev.baton.spi.ProviderTransport.Request;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/**
 * Baton's HTTP client, on one of two libraries ({@code baton.http.client}): Netty, the default, or Apache HttpClient 5
 * async (Netty cost a fifth less server CPU a request: docs/performance.md, "HTTP client"). Both speak HTTP/1.1 only,
 * keep connections alive in a pool, run on a fixed set of threads started once (no request starts a thread), never
 * follow redirects (one could carry a key to another host), never retry on their own, and leave headers timeouts to
 * the engine's timer. Whichever runs, a response reaches {@link HttpExchange} the same way: as HttpClient 5's
 * {@link AsyncResponseConsumer}. Thread-safe; {@link #close()} stops its threads.
 */
public abstract sealed class BatonHttpClient implements AutoCloseable permits ApacheHttpClient, NettyHttpClient {

    /** The libraries Baton can talk HTTP with. */
    public enum Library {
        NETTY, HTTPCLIENT5;

        /**
         * The library a {@code baton.http.client} value names, case-insensitively.
         *
         * @throws IllegalArgumentException naming the values there are
         */
        public static Library of(String name) {
            for (Library library : values()) {
                if (library.name().equalsIgnoreCase(name.strip())) {
                    return library;
                }
            }
            throw new IllegalArgumentException("'" + name + "' is not one of "
                    + Arrays.stream(values()).map(l -> l.name().toLowerCase(Locale.ROOT)).toList());
        }
    }

    /**
     * HTTP/1.1 carries one exchange per connection and a stream holds its connection to the end, so the pool is as
     * large as the open streams Baton is meant to carry; its own limits ({@code max-concurrent}) come first.
     */
    static final int MAX_CONNECTIONS = 10_000;

    private final Scheduler scheduler;

    BatonHttpClient(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A started client on {@code library} whose connection attempts give up after {@code connectTimeout}; its I/O
     * threads come from {@code threads}, and its headers timeouts run on {@code scheduler} (the engine's).
     */
    public static BatonHttpClient start(Library library, Duration connectTimeout, ThreadFactory threads,
                                        Scheduler scheduler) {
        return switch (library) {
            case HTTPCLIENT5 -> ApacheHttpClient.open(connectTimeout, threads, scheduler);
            case NETTY -> NettyHttpClient.open(connectTimeout, threads, scheduler);
        };
    }

    /**
     * Sends {@code call}; the consumer reads the response on an I/O thread and the callback hears how the exchange
     * ended. Cancelling the returned handle aborts the exchange and closes its connection.
     */
    abstract Cancellable send(Request call, AsyncResponseConsumer<Void> response, FutureCallback<Void> callback);

    /** Runs {@code task} on the scheduler after {@code delay}. */
    final Scheduler.Scheduled schedule(Runnable task, Duration delay) {
        return scheduler.schedule(delay, task);
    }

    /** Stops the I/O threads (within seconds); exchanges still open are cut. */
    @Override
    public abstract void close();
}
