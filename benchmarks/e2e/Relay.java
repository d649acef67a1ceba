import jakarta.servlet.annotation.WebServlet;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.reactor.IOReactorConfig;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The least an asynchronous gateway on this server costs: deployed beside the sample as {@code relay.war}, it sends
 * the request to the fake upstream with the HTTP client Baton uses, set up as Baton sets it up, and copies the answer
 * back ({@link RelayServlet}). No parsing, no routing, no record: between the floor servlet (no upstream call) and
 * Baton, it shows what the asynchronous relay itself costs on this server, which any gateway inside it pays before doing
 * any work of its own.
 */
@WebServlet(urlPatterns = "/v1/chat/completions", asyncSupported = true)
public class Relay extends RelayServlet {

    private CloseableHttpAsyncClient client;

    @Override
    public void init() {
        client = HttpAsyncClients.custom()
                .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(10_000).setMaxConnPerRoute(10_000)
                        .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX).build())
                .setIOReactorConfig(IOReactorConfig.custom().setTcpNoDelay(true).build())
                .setHttp1Config(Http1Config.custom().setBufferSize(8192).build())
                .disableRedirectHandling().disableAutomaticRetries().disableContentCompression()
                .disableCookieManagement().disableAuthCaching()
                .build();
        client.start();
    }

    @Override
    public void destroy() {
        client.close(CloseMode.GRACEFUL);
    }

    @Override
    void send(byte[] body, Output output) {
        var request = new BasicHttpRequest("POST", UPSTREAM);
        var entity = AsyncEntityProducers.create(body, ContentType.APPLICATION_JSON);
        client.execute(new BasicRequestProducer(request, entity), new Answer(output), null, null,
                new FutureCallback<>() {
                    @Override
                    public void completed(Void result) {
                    }

                    @Override
                    public void failed(Exception e) {
                        output.fail();
                    }

                    @Override
                    public void cancelled() {
                        output.fail();
                    }
                });
    }

    /** Hands each read of the upstream's answer to the caller's output as it comes. */
    private record Answer(Output output) implements AsyncResponseConsumer<Void> {

        @Override
        public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context,
                                    FutureCallback<Void> callback) {
            output.head(response.getCode(), entity == null ? null : entity.getContentType(),
                    entity == null ? -1 : entity.getContentLength());
            if (entity == null) {
                output.offer(null, true);
            }
        }

        @Override
        public void informationResponse(HttpResponse response, HttpContext context) {
        }

        @Override
        public void updateCapacity(CapacityChannel window) throws IOException {
            window.update(Integer.MAX_VALUE);
        }

        @Override
        public void consume(ByteBuffer src) {
            byte[] bytes = new byte[src.remaining()];
            src.get(bytes);
            output.offer(bytes, false);
        }

        @Override
        public void streamEnd(List<? extends Header> trailers) {
            output.offer(null, true);
        }

        @Override
        public void failed(Exception cause) {
            output.fail();
        }

        @Override
        public void releaseResources() {
        }
    }
}
