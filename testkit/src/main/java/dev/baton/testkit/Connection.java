package dev.baton.testkit;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * One client connection: reads requests in turn, has the simulator answer them, and offers the byte-level moves the
 * behaviours need (chunked events, stalls, cuts, resets).
 *
 * <p>Not thread-safe; run by one thread, except {@link #abort()}, which any thread may call.
 */
final class Connection implements Runnable {

    private static final byte[] CRLF = {'\r', '\n'};

    private final ProviderSimulator simulator;
    private final Socket socket;
    private final HttpInput in;
    private final OutputStream out;
    /** The recorded request whose response is under way, so a hang-up can be attributed to it. */
    private RecordedRequest pending;

    Connection(ProviderSimulator simulator, Socket socket) throws IOException {
        this.simulator = simulator;
        this.socket = socket;
        this.in = new HttpInput(socket);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
    }

    @Override
    public void run() {
        try {
            for (HttpInput.Request request = in.readRequest(); request != null; request = in.readRequest()) {
                boolean reusable = simulator.serve(request, this);
                pending = null;
                if (!reusable || "close".equalsIgnoreCase(request.header("connection"))) {
                    break;
                }
            }
        } catch (HttpInput.MalformedRequest e) {
            try {
                byte[] body = OpenAiWire.INSTANCE.errorBody(Behavior.ApiError.of(400, "invalid_request_error", null,
                        null, "Malformed HTTP request: " + e.getMessage()), null, null).getBytes(StandardCharsets.UTF_8);
                send(400, Map.of("content-type", "application/json", "connection", "close"), body);
            } catch (IOException ignored) {
                // the client is gone as well; nothing left to tell it
            }
        } catch (IOException e) {
            if (pending != null && !simulator.isClosed()) {
                pending.markClientDisconnected();
            }
        } finally {
            abort();
            simulator.forget(this);
        }
    }

    /** Marks the request whose response follows; a later hang-up is reported on it. */
    void answering(RecordedRequest request) {
        pending = request;
    }

    void send(int status, Map<String, String> headers, byte[] body) throws IOException {
        writeHead(status, headers, "content-length: " + body.length);
        out.write(body);
        out.flush();
    }

    void startStream(int status, Map<String, String> headers) throws IOException {
        writeHead(status, headers, "transfer-encoding: chunked");
        out.flush();
    }

    /** Writes one event as its own HTTP chunk and flushes, so each event leaves at its own moment. */
    void event(String frame) throws IOException {
        event(frame.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes one binary frame as its own HTTP chunk and flushes. */
    void event(byte[] data) throws IOException {
        out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(data);
        out.write(CRLF);
        out.flush();
    }

    void endStream() throws IOException {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Waits, throwing as soon as the client hangs up; zero returns at once. */
    void pause(Duration duration) throws IOException {
        if (!duration.isZero()) {
            in.idle(duration);
        }
    }

    /** Holds the connection open until the client (or the simulator) closes it; always ends by throwing. */
    void hold() throws IOException {
        in.idle(null);
    }

    /** Ends the connection with a TCP reset. */
    void reset() throws IOException {
        pending = null;
        socket.setSoLinger(true, 0);
        socket.close();
    }

    /** Ends the connection with a plain FIN mid-response, leaving the chunked body unterminated. */
    void cut() throws IOException {
        pending = null;
        out.flush();
        socket.shutdownOutput();
        socket.close();
    }

    void abort() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort; the socket is unusable either way
        }
    }

    private void writeHead(int status, Map<String, String> headers, String framing) throws IOException {
        StringBuilder head = new StringBuilder(256).append("HTTP/1.1 ").append(status).append(' ')
                .append(reason(status)).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append(framing).append("\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 413 -> "Payload Too Large";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            case 529 -> "Site Overloaded";
            default -> "Status " + status;
        };
    }
}
