package dev.baton.impl.http;

import org.apache.hc.client5.http.async.AsyncExecRuntime;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Baton's HTTP client: Apache HttpClient 5 async over HTTP/1.1, on a fixed set of threads started once (one I/O
 * dispatcher per CPU, the client's starter thread and one timer for headers timeouts). No request starts a thread:
 * the JDK client hands every response to {@code CompletableFuture}'s default executor, which on 2 CPUs starts a
 * thread per task (see docs/performance.md, "HTTP client"). Never follows redirects: one could carry a key to another
 * host. Thread-safe; {@link #close()} stops its threads.
 */
public final class BatonHttpClient implements AutoCloseable {

    /**
     * HTTP/1.1 carries one exchange per connection and a stream holds its connection to the end, so the pool is as
     * large as the open streams Baton is meant to carry; its own limits ({@code max-concurrent}) come first.
     */
    static final int MAX_CONNECTIONS = 10_000;

    /** Where an exchange's context keeps its runtime, which can close the exchange's connection. */
    private static final String RUNTIME = "dev.baton.exec-runtime";

    private final CloseableHttpAsyncClient client;
    private final ScheduledThreadPoolExecutor timer;

    private BatonHttpClient(CloseableHttpAsyncClient client, ScheduledThreadPoolExecutor timer) {
        this.client = client;
        this.timer = timer;
    }

    /** A started client whose connection attempts give up after {@code connectTimeout}. */
    public static BatonHttpClient start(Duration connectTimeout) {
        var connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .build())
                // The JDK's default SSLContext and the https.protocols/cipherSuites properties, as the JDK client had.
                .setTlsStrategy(ClientTlsStrategyBuilder.create().useSystemProperties().buildAsync())
                .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build())
                .build();
        CloseableHttpAsyncClient client = HttpAsyncClients.custom()
                .setConnectionManager(connections)
                .setIOReactorConfig(IOReactorConfig.custom().setTcpNoDelay(true).build())
                .setThreadFactory(threads("baton-http-"))
                .addExecInterceptorFirst("baton-runtime", (request, entity, scope, chain, callback) -> {
                    scope.clientContext.setAttribute(RUNTIME, scope.execRuntime);
                    chain.proceed(request, entity, scope, callback);
                })
                .disableRedirectHandling()
                .disableAutomaticRetries() // the engine decides what is retried, and where
                .disableContentCompression()
                .disableCookieManagement()
                .disableAuthCaching()
                .build();
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, threads("baton-http-timer-"));
        timer.setRemoveOnCancelPolicy(true); // cancelled on every response's headers, so nearly always cancelled
        client.start();
        return new BatonHttpClient(client, timer);
    }

    /**
     * Sends {@code call}; the consumer reads the response on an I/O thread and the callback hears how the exchange
     * ended. Cancelling the returned handle aborts the exchange and closes its connection.
     */
    Cancellable send(HttpCall call, AsyncResponseConsumer<Void> response, FutureCallback<Void> callback) {
        var request = new BasicHttpRequest(call.method(), call.uri());
        call.headers().forEach(request::addHeader);
        // The content type travels in the headers; this one is never sent.
        var body = AsyncEntityProducers.create(call.body(), ContentType.APPLICATION_OCTET_STREAM);
        HttpClientContext context = HttpClientContext.create();
        Future<Void> sent = client.execute(new BasicRequestProducer(request, body), response, null, context, callback);
        return () -> {
            sent.cancel(true);
            // The client drops that cancellation when a pooled connection is leased at once (HttpClient 5.6):
            // closing the connection is what surely ends the exchange.
            if (context.getAttribute(RUNTIME) instanceof AsyncExecRuntime runtime) {
                runtime.discardEndpoint();
            }
            return true;
        };
    }

    /** Runs {@code task} on the client's timer after {@code delay}. */
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops the I/O threads (within seconds) and the timer; exchanges still open are cut. */
    @Override
    public void close() {
        timer.shutdownNow();
        client.close(CloseMode.GRACEFUL); // IMMEDIATE closes selectors under the I/O threads, which log it as errors
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
