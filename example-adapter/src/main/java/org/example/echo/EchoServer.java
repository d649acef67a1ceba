package org.example.echo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An echo upstream on loopback, for tests and demos: answers {@code POST /{account}/echo} with
 * {@code prefix + text}, whole or one word per event. Every request body is kept for tests to look at.
 * Account {@code down} answers every request with a 503. Thread-safe.
 */
public final class EchoServer implements AutoCloseable {

    private final HttpServer server;
    private final List<JsonObject> received = new CopyOnWriteArrayList<>();

    private EchoServer(HttpServer server) {
        this.server = server;
    }

    /** Starts on 127.0.0.1 and a free port. */
    public static EchoServer start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        EchoServer echo = new EchoServer(server);
        server.createContext("/", echo::handle);
        server.start();
        return echo;
    }

    /** The base URL of connection {@code account}: {@code http://127.0.0.1:port/account}. */
    public String baseUrl(String account) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + account;
    }

    /** The request bodies received so far, oldest first. */
    public List<JsonObject> received() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().endsWith("/echo")) {
                send(exchange, 404, "application/json", "{\"error\":\"not found\"}");
                return;
            }
            JsonObject request;
            try (var reader = Json.createReader(new InputStreamReader(exchange.getRequestBody(), StandardCharsets.UTF_8))) {
                request = reader.readObject();
            }
            received.add(request);
            if (exchange.getRequestURI().getPath().startsWith("/down/")) {
                send(exchange, 503, "application/json", "{\"error\":\"down\"}");
                return;
            }
            String text = request.getString("text", "");
            String answer = request.getString("prefix", "") + text;
            if (!request.getBoolean("stream", false)) {
                send(exchange, 200, "application/json", Json.createObjectBuilder().add("text", answer).build().toString());
                return;
            }
            StringBuilder events = new StringBuilder();
            String[] words = answer.split("(?<= )");
            for (String word : words) {
                events.append("data: ").append(Json.createObjectBuilder().add("text", word).build()).append("\n\n");
            }
            events.append("data: [END]\n\n");
            send(exchange, 200, "text/event-stream", events.toString());
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("content-type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
