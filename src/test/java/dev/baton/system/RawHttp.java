package dev.baton.system;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One HTTP/1.1 connection on a raw socket, for what {@code java.net.http} hides or refuses to send:
 * malformed bodies, bodies that never finish, several requests on one connection.
 */
final class RawHttp implements AutoCloseable {

    /** A response as read off the wire; header names in lower case. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name);
        }
    }

    /**
     * Whether the server under test keeps an HTTP/1.1 connection open after an answer with this
     * status. WildFly always does. Open Liberty's HTTP channel closes it, whatever the application
     * does, after every status its table marks as an error: 400, 402-417 and 500-505, but not 401,
     * 422 or 429 (HttpInboundServiceContextImpl.updatePersistence; OpenLiberty/open-liberty#16521).
     */
    static boolean keepsAliveAfter(int status) {
        boolean liberty = "liberty".equals(System.getProperty("arquillian.launch"));
        return !liberty || !(status == 400 || status >= 402 && status <= 417 || status >= 500 && status <= 505);
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(URL base, int readTimeoutMillis) {
        try {
            socket = new Socket(base.getHost(), base.getPort());
            socket.setSoTimeout(readTimeoutMillis);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path of {@code relative} (e.g. {@code v1/models}) under a deployment's base URL. */
    static String path(URL base, String relative) {
        return base.getPath() + (base.getPath().endsWith("/") ? "" : "/") + relative;
    }

    /** The head of a POST with the given Content-Length (the body may follow, or not). */
    static byte[] head(String path, String authorization, long contentLength, String extraHeaders) {
        return ("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + extraHeaders
                + "Content-Length: " + contentLength + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    RawHttp send(byte[]... parts) {
        try {
            for (byte[] part : parts) {
                out.write(part);
            }
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a GET and reads its response. */
    Response get(String path, String authorization) {
        return send(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + authorization + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1)).read();
    }

    /** Sends a POST with a whole body and reads its response. */
    Response post(String path, String authorization, byte[] body) {
        return send(head(path, authorization, body.length, ""), body).read();
    }

    void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the server has answered or closed: bytes (or the end) are there to read. */
    boolean answered() {
        try {
            return in.available() > 0 || socket.isInputShutdown();
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Whether the connection stays open after {@code response}, asserting that it does exactly
     * where {@link #keepsAliveAfter} says: kept without {@code Connection: close}, or announced
     * closed and then ended by the server.
     */
    boolean keptAfter(Response response) {
        boolean kept = keepsAliveAfter(response.status());
        if (kept) {
            assertNotEquals("close", String.valueOf(response.header("connection")).toLowerCase(Locale.ROOT),
                    response.headers()::toString);
        } else {
            assertEquals("close", String.valueOf(response.header("connection")).toLowerCase(Locale.ROOT),
                    response.headers()::toString);
            assertTrue(closedByServer(), "announced Connection: close, then kept the connection open");
        }
        return kept;
    }

    /** Whether the server has closed the connection: the next read finds its end. */
    boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** Reads one response: status line, headers, then a Content-Length or chunked body. */
    Response read() {
        try {
            String status = line();
            Map<String, String> headers = new TreeMap<>();
            for (String line = line(); !line.isEmpty(); line = line()) {
                int colon = line.indexOf(':');
                headers.merge(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip(),
                        (a, b) -> a + ", " + b);
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                for (int size = Integer.parseInt(line().split(";")[0].strip(), 16); size > 0;
                     size = Integer.parseInt(line().split(";")[0].strip(), 16)) {
                    body.write(in.readNBytes(size));
                    line();
                }
                line();
            } else if (headers.containsKey("content-length")) {
                body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
            }
            return new Response(Integer.parseInt(status.split(" ")[1]), headers,
                    body.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed after: " + line);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
