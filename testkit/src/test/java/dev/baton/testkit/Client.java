package dev.baton.testkit;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The JDK HttpClient as a gateway would use it against the simulator: HTTP/1.1, short timeouts. */
final class Client {

    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    static String chatBody(String model, boolean stream, boolean includeUsage) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]"
                + (stream ? ",\"stream\":true" : "")
                + (includeUsage ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}";
    }

    static HttpRequest.Builder chat(String baseUrl, String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions"))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer sk-test-secret")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    HttpResponse<String> complete(String baseUrl, String model) throws IOException, InterruptedException {
        return http.send(chat(baseUrl, chatBody(model, false, false)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    Sse stream(String baseUrl, String model, boolean includeUsage) throws IOException, InterruptedException {
        HttpResponse<InputStream> response = http.send(chat(baseUrl, chatBody(model, true, includeUsage)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        return new Sse(response);
    }

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** Reads SSE data payloads on a background thread so tests can wait with timeouts. */
    static final class Sse implements AutoCloseable {
        private static final Object END = new Object();

        final HttpResponse<InputStream> response;
        private final BlockingQueue<Object> items = new LinkedBlockingQueue<>();

        Sse(HttpResponse<InputStream> response) {
            this.response = response;
            Thread reader = new Thread(this::pump, "test-sse-reader");
            reader.setDaemon(true);
            reader.start();
        }

        private void pump() {
            try (var lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("data: ")) {
                        items.add(line.substring("data: ".length()));
                    }
                }
                items.add(END);
            } catch (IOException e) {
                items.add(e);
            }
        }

        /** The next data payload; fails if none arrives within five seconds or the stream ended. */
        String next() throws InterruptedException {
            Object item = items.poll(5, TimeUnit.SECONDS);
            if (!(item instanceof String data)) {
                throw new AssertionError("expected an event, got " + item);
            }
            return data;
        }

        /** True when nothing at all (no event, no end) arrives within the given time. */
        boolean quietFor(Duration duration) throws InterruptedException {
            Object item = items.poll(duration.toMillis(), TimeUnit.MILLISECONDS);
            if (item != null) {
                throw new AssertionError("expected silence, got " + item);
            }
            return true;
        }

        /** All remaining payloads until the stream ends, and the failure that ended it, if any. */
        Drained drain() throws InterruptedException {
            List<String> events = new ArrayList<>();
            while (true) {
                Object item = items.poll(5, TimeUnit.SECONDS);
                if (item == null) {
                    throw new AssertionError("stream neither ended nor failed within 5 s; got " + events);
                }
                if (item == END) {
                    return new Drained(events, null);
                }
                if (item instanceof IOException e) {
                    return new Drained(events, e);
                }
                events.add((String) item);
            }
        }

        @Override
        public void close() throws IOException {
            response.body().close();
        }
    }

    record Drained(List<String> events, IOException failure) {
    }
}
