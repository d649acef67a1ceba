import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A fake OpenAI upstream for the end-to-end benchmark. {@code POST .../chat/completions} answers a fixed
 * completion at once, or with {@code "stream":true} an SSE stream of chat.completion.chunk events ending in
 * {@code [DONE]}; {@code POST .../responses} a fixed response of the Responses API, or with {@code "stream":true}
 * its typed events from {@code response.created} to {@code response.completed}; {@code POST .../embeddings} one
 * embedding of 1,536 floats (about 20 KB). The bodies are {@link Answers}'. It must be much faster than the gateway
 * in front of it, so every answer is pre-rendered bytes and nothing is parsed but the request line, the headers and
 * a few markers in the body.
 *
 * <p>Markers in the request body (they travel unchanged through Baton inside the user message or the input):
 * {@code chunks=N} (content events per stream, default 20) and {@code interval_ms=M} (pause between content
 * events, default 0: the whole stream goes out in one write). {@code interval_ms=1000} is the slow drip of the
 * many-streams run.
 *
 * <p>One virtual thread per connection with blocking I/O: cheap enough for 64 busy keep-alive connections and
 * for 10,000 mostly idle dripping streams alike. Needs Java 21+; run with the Temurin 25 launcher
 * ({@code java FakeUpstream.java 8099} finds {@code Answers.java} beside it), or compile both.
 */
public final class FakeUpstream {

    private static final byte[] COMPLETION = response("application/json", Answers.CHAT_COMPLETION);

    private static final byte[] RESPONSE = response("application/json", Answers.RESPONSE);

    private static final byte[] EMBEDDINGS = response("application/json", Answers.EMBEDDINGS);

    private static final byte[] NOT_FOUND = response("application/json",
            "{\"error\":{\"message\":\"not served by the fake upstream\",\"type\":\"invalid_request_error\"}}",
            "404 Not Found");

    private static final byte[] SSE_HEAD = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    /** Whole fast streams (head + every event + last chunk), by operation, chunk count and include_usage. */
    private static final Map<String, byte[]> STREAMS = new ConcurrentHashMap<>();

    private static final AtomicLong REQUESTS = new AtomicLong();
    private static final AtomicLong OPEN = new AtomicLong();

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8099;
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 4096);
            System.out.println("fake upstream listening on 127.0.0.1:" + port);
            while (true) {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket));
            }
        }
    }

    private static void serve(Socket socket) {
        OPEN.incrementAndGet();
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
            while (handle(in, out)) {
                REQUESTS.incrementAndGet();
            }
        } catch (IOException e) {
            // a client that goes away mid-stream is normal under load
        } finally {
            OPEN.decrementAndGet();
        }
    }

    /** One request/response exchange; false when the connection is to be closed. */
    private static boolean handle(InputStream in, OutputStream out) throws IOException {
        String requestLine = line(in);
        if (requestLine == null) {
            return false;
        }
        long length = 0;
        boolean chunked = false;
        boolean close = false;
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("transfer-encoding")) {
                chunked = value.equalsIgnoreCase("chunked");
            } else if (name.equalsIgnoreCase("connection")) {
                close = value.equalsIgnoreCase("close");
            }
        }
        String body = chunked ? chunkedBody(in) : new String(in.readNBytes((int) length), StandardCharsets.UTF_8);
        String path = requestLine.split(" ", 3)[1];
        if (requestLine.startsWith("GET /__stats")) {
            out.write(response("text/plain", "requests=" + REQUESTS.get() + " open=" + OPEN.get() + "\n"));
        } else if (!requestLine.startsWith("POST ")) {
            out.write(NOT_FOUND);
        } else if (path.endsWith("/chat/completions")) {
            if (!flag(body, "\"stream\"")) {
                out.write(COMPLETION);
            } else {
                boolean usage = flag(body, "\"include_usage\"");
                stream(out, body, "chat/" + usage, chunks -> Answers.chatEvents(chunks, usage),
                        Answers.CHAT_FIRST_CONTENT);
            }
        } else if (path.endsWith("/responses")) {
            if (!flag(body, "\"stream\"")) {
                out.write(RESPONSE);
            } else {
                stream(out, body, "responses", Answers::responseEvents, Answers.RESPONSE_FIRST_DELTA);
            }
        } else if (path.endsWith("/embeddings")) {
            out.write(EMBEDDINGS);
        } else {
            out.write(NOT_FOUND);
        }
        out.flush();
        return !close;
    }

    /**
     * A stream of {@code chunks=N} content events (the events from {@code render}): all in one write, or with
     * {@code interval_ms=M} dripped. {@code kind} names the operation and options the events depend on besides N.
     */
    private static void stream(OutputStream out, String body, String kind, IntFunction<String[]> render,
            int firstContent) throws IOException {
        int chunks = number(body, "chunks=", 20);
        int interval = number(body, "interval_ms=", 0);
        if (interval <= 0) {
            out.write(STREAMS.computeIfAbsent(kind + "/" + chunks, k -> wholeStream(render.apply(chunks))));
        } else {
            drip(out, render.apply(chunks), firstContent, chunks, interval);
        }
    }

    private static byte[] wholeStream(String[] events) {
        StringBuilder text = new StringBuilder();
        for (String event : events) {
            text.append(event);
        }
        byte[] data = text.toString().getBytes(StandardCharsets.UTF_8);
        byte[] size = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] end = "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[SSE_HEAD.length + size.length + data.length + end.length];
        System.arraycopy(SSE_HEAD, 0, all, 0, SSE_HEAD.length);
        System.arraycopy(size, 0, all, SSE_HEAD.length, size.length);
        System.arraycopy(data, 0, all, SSE_HEAD.length + size.length, data.length);
        System.arraycopy(end, 0, all, all.length - end.length, end.length);
        return all;
    }

    /**
     * One event per HTTP chunk, flushed, with a pause before each content event but the first (the events from
     * {@code firstContent} on, {@code chunks} of them): a slow model.
     */
    private static void drip(OutputStream out, String[] events, int firstContent, int chunks, int intervalMillis)
            throws IOException {
        out.write(SSE_HEAD);
        for (int i = 0; i < events.length; i++) {
            if (i > firstContent && i < firstContent + chunks) {
                try {
                    Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            byte[] data = events[i].getBytes(StandardCharsets.UTF_8);
            out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(data);
            out.write('\r');
            out.write('\n');
            out.flush();
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] response(String contentType, String body) {
        return response(contentType, body, "200 OK");
    }

    private static byte[] response(String contentType, String body, String status) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + "\r\nContent-Type: " + contentType + "\r\nx-request-id: req_bench\r\n"
                + "Content-Length: " + bytes.length + "\r\n\r\n";
        byte[] all = new byte[head.length() + bytes.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, all, 0, head.length());
        System.arraycopy(bytes, 0, all, head.length(), bytes.length);
        return all;
    }

    /** True when {@code "key"} is followed by {@code : true} (JSON spacing allowed). */
    private static boolean flag(String body, String key) {
        int at = body.indexOf(key);
        if (at < 0) {
            return false;
        }
        int i = at + key.length();
        while (i < body.length() && (body.charAt(i) == ' ' || body.charAt(i) == ':')) {
            i++;
        }
        return body.startsWith("true", i);
    }

    private static int number(String body, String marker, int fallback) {
        int at = body.indexOf(marker);
        if (at < 0) {
            return fallback;
        }
        int i = at + marker.length();
        int end = i;
        while (end < body.length() && Character.isDigit(body.charAt(end))) {
            end++;
        }
        return end > i ? Integer.parseInt(body.substring(i, end)) : fallback;
    }

    private static String chunkedBody(InputStream in) throws IOException {
        StringBuilder body = new StringBuilder();
        while (true) {
            String size = line(in);
            if (size == null) {
                throw new IOException("eof in chunked body");
            }
            int n = Integer.parseInt(size.split(";", 2)[0].trim(), 16);
            if (n == 0) {
                while (true) { // trailers up to the blank line
                    String trailer = line(in);
                    if (trailer == null || trailer.isEmpty()) {
                        return body.toString();
                    }
                }
            }
            body.append(new String(in.readNBytes(n), StandardCharsets.UTF_8));
            line(in);
        }
    }

    /** A CRLF-terminated line as ASCII, or null at end of stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                int n = line.length();
                return n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
            }
            line.append((char) b);
        }
        return line.isEmpty() ? null : line.toString();
    }
}
