import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The least an asynchronous gateway on this server costs: deployed beside the sample as {@code relay.war}, it reads
 * the request without blocking, sends it to the fake upstream with the HTTP client Baton uses, set up as Baton sets it
 * up, and copies the answer's bytes back without blocking, one flush per read of the upstream's socket. No parsing,
 * no routing, no record: between the floor servlet (no upstream call) and Baton, it shows what the asynchronous relay
 * itself costs on this server, which any gateway inside it pays before doing any work of its own.
 */
@WebServlet(urlPatterns = "/v1/chat/completions", asyncSupported = true)
public class Relay extends HttpServlet {

    private static final String UPSTREAM = System.getProperty("relay.upstream",
            System.getenv().getOrDefault("RELAY_UPSTREAM", "http://127.0.0.1:8099/primary/v1/chat/completions"));

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
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        AsyncContext async = req.startAsync();
        async.setTimeout(60_000);
        ServletInputStream in = req.getInputStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream(256);
        byte[] buffer = new byte[1024];
        in.setReadListener(new ReadListener() {
            @Override
            public void onDataAvailable() throws IOException {
                while (in.isReady()) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    body.write(buffer, 0, n);
                }
            }

            @Override
            public void onAllDataRead() throws IOException {
                send(body.toByteArray(), new Output(async, resp));
            }

            @Override
            public void onError(Throwable t) {
                async.complete();
            }
        });
    }

    private void send(byte[] body, Output output) {
        var request = new BasicHttpRequest("POST", UPSTREAM);
        var entity = AsyncEntityProducers.create(body, ContentType.APPLICATION_JSON);
        client.execute(new BasicRequestProducer(request, entity), output, null, null, new FutureCallback<>() {
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

    /** Copies the upstream's answer to the caller: written while the caller's connection takes it, flushed per read. */
    private static final class Output implements AsyncResponseConsumer<Void>, WriteListener {

        private final AsyncContext async;
        private final HttpServletResponse resp;
        private final ServletOutputStream out;
        private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
        private boolean ended;
        private boolean done;
        /** Flushing nothing would send the status line on its own. */
        private boolean unflushed;

        Output(AsyncContext async, HttpServletResponse resp) throws IOException {
            this.async = async;
            this.resp = resp;
            this.out = resp.getOutputStream();
        }

        @Override
        public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context,
                                    FutureCallback<Void> callback) {
            resp.setStatus(response.getCode());
            if (entity != null) {
                resp.setContentType(entity.getContentType());
                if (entity.getContentLength() >= 0) {
                    resp.setContentLengthLong(entity.getContentLength());
                }
            }
            out.setWriteListener(this);
            if (entity == null) {
                offer(null, true);
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
            offer(bytes, false);
        }

        @Override
        public void streamEnd(List<? extends Header> trailers) {
            offer(null, true);
        }

        @Override
        public void failed(Exception cause) {
            fail();
        }

        @Override
        public void releaseResources() {
        }

        synchronized void offer(byte[] bytes, boolean last) {
            if (bytes != null) {
                queue.add(bytes);
            }
            ended |= last;
            onWritePossible();
        }

        @Override
        public synchronized void onWritePossible() {
            try {
                while (!done && out.isReady()) {
                    byte[] next = queue.poll();
                    if (next != null) {
                        out.write(next);
                        unflushed = true;
                    } else if (ended) {
                        done = true;
                        async.complete();
                    } else {
                        if (unflushed) {
                            unflushed = false;
                            out.flush();
                        }
                        return;
                    }
                }
            } catch (IOException e) {
                fail();
            }
        }

        @Override
        public void onError(Throwable t) {
            fail();
        }

        synchronized void fail() {
            if (!done) {
                done = true;
                if (!resp.isCommitted()) {
                    resp.setStatus(502);
                }
                async.complete();
            }
        }
    }
}
