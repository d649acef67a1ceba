package dev.baton.system;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deployed gateway as a client sees it: the official OpenAI SDK, and raw {@code java.net.http} for exact statuses,
 * headers and SSE frames. Built from the base URL Arquillian injects; never from a hard-coded context root.
 */
final class Gateway implements AutoCloseable {

    static final String KEY = "baton-demo-key";
    static final String ADMIN_KEY = "baton-demo-admin-key";
    static final String ROUTE = "demo";
    static final String MODEL = "gpt-5.4-mini";
    static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("baton.system.timeout-seconds", 30));

    /*
     * One JDK client for the whole run. Its idle connections must not outlive the tests: Open Liberty's HTTP endpoint
     * waits for open connections when it stops, so failsafe sets -Djdk.httpclient.keepalive.timeout=1.
     */
    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final URI base;
    private final HttpClient http = HTTP;
    private final List<OpenAIClient> clients = new ArrayList<>();

    Gateway(URL base) {
        String s = base.toExternalForm();
        this.base = URI.create(s.endsWith("/") ? s : s + "/");
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    /** The official SDK, pointed at {@code {base}v1}, with its own retries off so every call is one request. */
    OpenAIClient openAi() {
        return openAi(KEY);
    }

    /**
     * The official SDK with the given key. {@code Connection: close} keeps OkHttp from pooling connections that would
     * hold up the server's shutdown; {@link #close()} closes the client.
     */
    OpenAIClient openAi(String apiKey) {
        OpenAIClient client = OpenAIOkHttpClient.builder()
                .baseUrl(uri("v1").toString())
                .apiKey(apiKey)
                .maxRetries(0)
                .timeout(TIMEOUT)
                .putHeader("Connection", "close")
                .build();
        clients.add(client);
        return client;
    }

    /** Closes every SDK client this gateway handed out. */
    @Override
    public void close() {
        clients.forEach(OpenAIClient::close);
        clients.clear();
    }

    /** A chat completions body asking {@code model} one question. */
    static String chatBody(String model, boolean stream) {
        return Json.createObjectBuilder()
                .add("model", model)
                .add("stream", stream)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "Say hello.")))
                .build().toString();
    }

    HttpResponse<String> postChat(String body) {
        return postChat(body, "Bearer " + KEY);
    }

    /** POST {@code v1/chat/completions}; a null authorization sends no Authorization header. */
    HttpResponse<String> postChat(String body, String authorization) {
        return send(chatRequest(body, authorization), HttpResponse.BodyHandlers.ofString());
    }

    HttpRequest chatRequest(String body, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("v1/chat/completions"))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request.build();
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Puts both demo connections back in rotation, healthy and unparked, through the operator endpoint. */
    void restoreConnections() {
        restoreConnections("primary", "standby");
    }

    /** Puts {@code connections} back in rotation (parked or ejected), with the admin key. */
    void restoreConnections(String... connections) {
        for (String connection : connections) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri("v1/connections/" + connection + "/restore"))
                    .timeout(TIMEOUT).header("Authorization", "Bearer " + ADMIN_KEY)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response::body);
        }
    }

    /** {@code GET path} with the admin key, as JSON; must answer 200. */
    JsonObject admin(String path) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + ADMIN_KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), () -> path + ": " + response.body());
        return json(response.body());
    }

    /** The record of a request, from {@code GET v1/requests/{id}}, read with the sample's key. */
    JsonObject record(String requestId) {
        return record(requestId, KEY);
    }

    /** The record of a request, read with {@code key}: a named key reads only the records it created. */
    JsonObject record(String requestId, String key) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("v1/requests/" + requestId)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), () -> "record " + requestId + ": " + response.body());
        return json(response.body());
    }

    <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonObject json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** The {@code data:} payloads of an SSE body, in order. */
    static List<String> dataEvents(String sseBody) {
        List<String> events = new ArrayList<>();
        for (String line : sseBody.split("\r?\n")) {
            if (line.startsWith("data:")) {
                events.add(line.substring(5).strip());
            }
        }
        return events;
    }

    /** The text of a streamed answer: every delta's content, in order. */
    static String streamedText(List<String> events) {
        StringBuilder text = new StringBuilder();
        for (String event : events) {
            if (event.equals("[DONE]")) {
                continue;
            }
            JsonObject chunk = json(event);
            JsonArray choices = chunk.getJsonArray("choices");
            if (choices == null) {
                continue;
            }
            for (var choice : choices) {
                JsonObject delta = choice.asJsonObject().getJsonObject("delta");
                if (delta != null && delta.containsKey("content") && !delta.isNull("content")) {
                    text.append(delta.getString("content"));
                }
            }
        }
        return text.toString();
    }

    /** The header, which must be present exactly once. */
    static String header(HttpResponse<?> response, String name) {
        List<String> values = response.headers().allValues(name);
        assertEquals(1, values.size(), () -> name + " must be sent once, got " + values + " in "
                + response.headers().map());
        return values.get(0);
    }

    static void assertHeaderAbsent(HttpResponse<?> response, String name) {
        assertTrue(response.headers().firstValue(name).isEmpty(),
                () -> name + " must not be sent, got " + response.headers().map());
    }

    /** A string member, or null when it is absent or JSON null. */
    static String text(JsonObject object, String name) {
        return object.containsKey(name) && !object.isNull(name) ? object.getString(name) : null;
    }

    /** The attempts of a record, each as {@code connection:http_status:kind}, for one readable assertion. */
    static List<String> attempts(JsonObject record) {
        List<String> out = new ArrayList<>();
        for (var value : record.getJsonArray("attempts")) {
            JsonObject a = value.asJsonObject();
            String kind = text(a, "kind");
            out.add(a.getString("connection") + ":" + a.getInt("http_status") + ":" + (kind == null ? "ok" : kind));
        }
        return out;
    }
}
