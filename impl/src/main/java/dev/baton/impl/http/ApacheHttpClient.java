package dev.baton.impl.http;

import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.concurrent.Threads;
import dev.baton.spi.ProviderTransport.Request;
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
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/**
 * Baton's HTTP client on Apache HttpClient 5 async ({@code baton.http.client=httpclient5}): one I/O dispatcher per CPU
 * and the client's starter thread. It replaced the JDK client, which hands every response to
 * {@code CompletableFuture}'s default executor, on 2 CPUs a thread per task (docs/performance.md, "HTTP client").
 */
final class ApacheHttpClient extends BatonHttpClient {

    /**
     * Per-connection I/O buffer size: a socket read takes at most this much. Each connection holds its buffers for its
     * whole life, a stream's included: an open stream's live heap was 56 KB at 8 KiB, 37 KB at 2 KiB. At 2 KiB an
     * answer of a few KB took a read, and a write to the caller, per 2 KiB: side by side, 8 KiB cut an SSE request's
     * server CPU by a sixth (docs/performance-history.md, "The fourth steps").
     */
    static final int BUFFER_SIZE = 8192;

    /** Where an exchange's context keeps its runtime, which can close the exchange's connection. */
    private static final String RUNTIME = "dev.baton.exec-runtime";

    private final CloseableHttpAsyncClient client;

    private ApacheHttpClient(CloseableHttpAsyncClient client, Scheduler scheduler) {
        super(scheduler);
        this.client = client;
    }

    /**
     * A started client whose connection attempts give up after {@code connectTimeout}; its I/O threads come from
     * {@code threads}, and its headers timeouts run on {@code scheduler} (the engine's).
     */
    static ApacheHttpClient open(Duration connectTimeout, ThreadFactory threads, Scheduler scheduler) {
        var connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                // A lock per route, not one for the whole pool: every request leases and returns a connection.
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
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
                .setHttp1Config(Http1Config.custom().setBufferSize(BUFFER_SIZE).build())
                .setThreadFactory(Threads.named(threads, "baton-http-"))
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
        client.start();
        return new ApacheHttpClient(client, scheduler);
    }

    @Override
    Cancellable send(Request call, AsyncResponseConsumer<Void> response, FutureCallback<Void> callback) {
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

    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL); // IMMEDIATE closes selectors under the I/O threads, which log it as errors
    }
}
