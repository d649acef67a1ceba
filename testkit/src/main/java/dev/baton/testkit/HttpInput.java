package dev.baton.testkit;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads HTTP/1.1 requests from a socket, and waits on it in a way that notices when the client hangs up.
 *
 * <p>Not thread-safe; owned by one connection thread.
 */
final class HttpInput {

    /** A request as read off the wire; header names are lower case. */
    record Request(String method, String target, Map<String, List<String>> headers, String body) {

        String header(String name) {
            return first(headers, name);
        }

        String path() {
            int query = target.indexOf('?');
            return query < 0 ? target : target.substring(0, query);
        }

        /** The query string without {@code ?}, or null. */
        String query() {
            int query = target.indexOf('?');
            return query < 0 ? null : target.substring(query + 1);
        }
    }

    /** The client sent something that is not HTTP/1.1; the connection cannot continue. */
    static final class MalformedRequest extends IOException {
        MalformedRequest(String message) {
            super(message);
        }
    }

    private static final int MAX_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 200;
    private static final int MAX_BODY = 32 * 1024 * 1024;

    private final Socket socket;
    private final InputStream in;
    private byte[] buf = new byte[8192];
    private int pos;
    private int lim;

    HttpInput(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
    }

    /** The next request, or null when the client closed the connection cleanly between requests. */
    Request readRequest() throws IOException {
        String requestLine = readLine();
        while (requestLine != null && requestLine.isEmpty()) {
            requestLine = readLine(); // RFC 9112 allows stray CRLFs before a request
        }
        if (requestLine == null) {
            return null;
        }
        String[] parts = requestLine.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new MalformedRequest("bad request line: " + requestLine);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = requireLine(); !line.isEmpty(); line = requireLine()) {
            int colon = line.indexOf(':');
            if (colon <= 0 || headers.size() > MAX_HEADERS) {
                throw new MalformedRequest("bad header line: " + line);
            }
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        if ("100-continue".equalsIgnoreCase(first(headers, "expect"))) {
            socket.getOutputStream().write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
        }
        return new Request(parts[0], parts[1], headers, readBody(headers));
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null ? null : values.get(0);
    }

    private String readBody(Map<String, List<String>> headers) throws IOException {
        String encoding = first(headers, "transfer-encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return new String(readChunked(), StandardCharsets.UTF_8);
        }
        String length = first(headers, "content-length");
        if (length == null) {
            return "";
        }
        try {
            int n = Integer.parseInt(length);
            if (n < 0 || n > MAX_BODY) {
                throw new MalformedRequest("unsupported content-length " + length);
            }
            return new String(readBytes(n), StandardCharsets.UTF_8);
        } catch (NumberFormatException e) {
            throw new MalformedRequest("bad content-length " + length);
        }
    }

    /**
     * Waits for {@code duration} (forever when null) and throws {@link EOFException} as soon as the client closes.
     * Reading is the only portable way to see a hang-up; anything the client sends meanwhile stays buffered.
     */
    void idle(Duration duration) throws IOException {
        long deadline = duration == null ? 0 : System.nanoTime() + duration.toNanos();
        try {
            while (true) {
                int timeoutMillis = 0;
                if (duration != null) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        return;
                    }
                    timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (remaining + 999_999) / 1_000_000));
                }
                socket.setSoTimeout(timeoutMillis);
                try {
                    if (!fill()) {
                        throw new EOFException("client closed the connection");
                    }
                } catch (SocketTimeoutException e) {
                    // the timeout is the normal way out of a timed wait; the loop re-checks the deadline
                }
            }
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    private byte[] readChunked() throws IOException {
        var body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = requireLine();
            int semicolon = sizeLine.indexOf(';');
            String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim();
            int size;
            try {
                size = Integer.parseInt(hex, 16);
            } catch (NumberFormatException e) {
                throw new MalformedRequest("bad chunk size: " + sizeLine);
            }
            if (size < 0 || body.size() + size > MAX_BODY) {
                throw new MalformedRequest("chunked body too large");
            }
            if (size == 0) {
                while (!requireLine().isEmpty()) {
                    // trailers carry nothing the simulator uses
                }
                return body.toByteArray();
            }
            body.write(readBytes(size));
            if (!requireLine().isEmpty()) {
                throw new MalformedRequest("chunk not followed by CRLF");
            }
        }
    }

    private String requireLine() throws IOException {
        String line = readLine();
        if (line == null) {
            throw new EOFException("client closed the connection mid-request");
        }
        return line;
    }

    /** A line without its CRLF (a bare LF is tolerated), or null at end of stream before any byte. */
    private String readLine() throws IOException {
        int scanned = pos;
        while (true) {
            for (int i = scanned; i < lim; i++) {
                if (buf[i] == '\n') {
                    int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                    String line = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
                    pos = i + 1;
                    return line;
                }
            }
            if (lim - pos > MAX_LINE) {
                throw new MalformedRequest("line too long");
            }
            scanned = lim - pos;
            if (!fill()) {
                if (lim == pos) {
                    return null;
                }
                throw new EOFException("client closed the connection mid-line");
            }
            scanned += pos; // fill() may have compacted the buffer
        }
    }

    private byte[] readBytes(int n) throws IOException {
        byte[] out = new byte[n];
        int copied = 0;
        while (copied < n) {
            if (pos == lim && !fill()) {
                throw new EOFException("client closed the connection mid-body");
            }
            int chunk = Math.min(n - copied, lim - pos);
            System.arraycopy(buf, pos, out, copied, chunk);
            pos += chunk;
            copied += chunk;
        }
        return out;
    }

    /** Reads more bytes into the buffer; false at end of stream. */
    private boolean fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
        if (lim == buf.length) {
            if (buf.length >= MAX_BODY) {
                throw new MalformedRequest("client sent too much data");
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, lim, buf.length - lim);
        if (n < 0) {
            return false;
        }
        lim += n;
        return true;
    }
}
