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

    static String messagesBody(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":1024,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]"
                + (stream ? ",\"stream\":true" : "") + "}";
    }

    /** A POST to the Anthropic Messages route below an OpenAI-style base URL ({@code .../account/v1}). */
    static HttpRequest.Builder messages(String baseUrl, String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/messages"))
                .timeout(Duration.ofSeconds(5))
                .header("content-type", "application/json")
                .header("x-api-key", "sk-ant-test-secret")
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    HttpResponse<String> message(String baseUrl, String model) throws IOException, InterruptedException {
        return send(messages(baseUrl, messagesBody(model, false)).build());
    }

    Sse streamMessage(String baseUrl, String model) throws IOException, InterruptedException {
        return new Sse(http.send(messages(baseUrl, messagesBody(model, true)).build(),
                HttpResponse.BodyHandlers.ofInputStream()));
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

    /** One SSE event: its {@code event:} name (null when it has none) and its data. */
    record Event(String name, String data) {
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
                String name = null;
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("event: ")) {
                        name = line.substring("event: ".length());
                    } else if (line.startsWith("data: ")) {
                        items.add(new Event(name, line.substring("data: ".length())));
                    } else if (line.isEmpty()) {
                        name = null;
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
            if (!(item instanceof Event event)) {
                throw new AssertionError("expected an event, got " + item);
            }
            return event.data();
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
            List<Event> events = new ArrayList<>();
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
                events.add((Event) item);
            }
        }

        @Override
        public void close() throws IOException {
            response.body().close();
        }
    }

    /** What a drained stream delivered; {@link #events()} are the data payloads, {@link #named()} keep the names. */
    record Drained(List<Event> named, IOException failure) {
        List<String> events() {
            return named.stream().map(Event::data).toList();
        }

        List<String> names() {
            return named.stream().map(Event::name).toList();
        }
    }
}
