import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The servlet side of the benchmark's relay ({@link NettyRelay}): the request body read without blocking, the
 * upstream's answer copied back without blocking, one flush per upstream read. The relay only sends the body upstream
 * with its HTTP client, to the same path under the upstream's base as it was called under {@code /v1}
 * ({@code /v1/responses} to {@code {base}/responses}), as Baton does.
 */
abstract class RelayServlet extends HttpServlet {

    /** The upstream's base URL: a call to {@code /v1/X} goes to {@code {base}/X}. */
    static final String UPSTREAM = System.getProperty("relay.upstream",
            System.getenv().getOrDefault("RELAY_UPSTREAM", "http://127.0.0.1:8099/primary/v1"));

    /** Sends {@code body} upstream to {@code path} under its base and hands the answer to {@code output}. */
    abstract void send(String path, byte[] body, Output output);

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getPathInfo() == null ? "" : req.getPathInfo();
        AsyncContext async = req.startAsync();
        // No container timeout, as in Baton: Open Liberty runs each async timeout when it falls due even for a
        // response long completed, so a relay's 60 s timeouts would run during the runs measured a minute later
        // (Baton's among them) and be counted there.
        async.setTimeout(0);
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
                send(path, body.toByteArray(), new Output(async, resp));
            }

            @Override
            public void onError(Throwable t) {
                async.complete();
            }
        });
    }

    /** Copies the upstream's answer to the caller: written while the caller's connection takes it, flushed per read. */
    static final class Output implements WriteListener {

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

        /** The upstream's status and headers arrived: they become the caller's, and the body may follow. */
        void head(int status, String contentType, long contentLength) {
            resp.setStatus(status);
            if (contentType != null) {
                resp.setContentType(contentType);
            }
            if (contentLength >= 0) {
                resp.setContentLengthLong(contentLength);
            }
            out.setWriteListener(this);
        }

        /** Bytes of one upstream read ({@code null} for none), and whether the answer ends with them. */
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

        /** The upstream call failed: 502 if nothing was sent yet, and the end either way. */
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
