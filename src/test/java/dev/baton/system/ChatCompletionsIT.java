package dev.baton.system;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import dev.baton.testkit.Behavior;


import jakarta.json.JsonObject;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.jboss.arquillian.container.test.api.Deployment;



import org.jboss.shrinkwrap.api.spec.WebArchive;




import org.junit.jupiter.api.Test;


import static dev.baton.system.Gateway.attempts;
import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAI-compatible endpoint of the sample WAR, called like any OpenAI client would: answers, streams, failover
 * before the commit point, a stream that breaks after it, and a client that hangs up. Each test also reads the
 * request's record back from {@code v1/requests/{id}}.
 */
class ChatCompletionsIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it.war");
    }

    private static ChatCompletionCreateParams question() {
        return ChatCompletionCreateParams.builder().model(Gateway.ROUTE).addUserMessage("Say hello.").build();
    }

    private static String additional(ChatCompletion completion, String name) {
        JsonValue value = completion._additionalProperties().get(name);
        return value == null ? null : value.convert(String.class);
    }

    @Test
    void answersFromThePrimaryAndSaysWhatServedInHeadersAndBody() {
        OpenAIClient client = gateway.openAi();
        try (HttpResponseFor<ChatCompletion> response = client.chat().completions().withRawResponse()
                .create(question())) {
            ChatCompletion completion = response.parse();

            assertEquals(200, response.statusCode());
            assertEquals("Hello from primary.", completion.choices().get(0).message().content().orElseThrow());
            assertEquals(Gateway.MODEL, completion.model());
            assertEquals("openai", additional(completion, "provider"));
            assertEquals("primary", additional(completion, "connection"));
            assertEquals("primary", additional(completion, "route"));
            assertEquals(Gateway.ROUTE, additional(completion, "route_name"));
            assertEquals(List.of(Gateway.MODEL), response.headers().values("x-baton-model"));
            assertEquals(List.of("openai"), response.headers().values("x-baton-provider"));
            assertEquals(List.of("primary"), response.headers().values("x-baton-connection"));
            assertEquals(List.of("primary"), response.headers().values("x-baton-route"));
            assertEquals(List.of(Gateway.ROUTE), response.headers().values("x-baton-route-name"));
            String requestId = response.headers().values("x-request-id").get(0);

            JsonObject record = gateway.record(requestId);
            assertEquals(requestId, record.getString("id"));
            assertEquals("ok", record.getString("status"));
            assertEquals(200, record.getInt("http_status"));
            assertEquals(Gateway.ROUTE, record.getString("model_requested"));
            assertEquals(Gateway.MODEL, record.getString("model"));
            assertEquals("primary", record.getString("connection"));
            assertFalse(record.getBoolean("stream"));
            assertEquals(List.of("primary:200:ok"), attempts(record));
        }
        assertEquals(1, simulator.account("primary").requestCount());
        assertEquals(0, simulator.account("standby").requestCount());
    }

    @Test
    void streamsAnAnswerThatTheSdkAssembles() {
        OpenAIClient client = gateway.openAi();
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(question())) {
            stream.stream().forEach(chunk -> chunk.choices().forEach(
                    choice -> choice.delta().content().ifPresent(text::append)));
        }
        assertEquals("Hello from primary.", text.toString());
        assertTrue(simulator.account("primary").lastRequest().json().getBoolean("stream"),
                "Baton must stream from the provider, not buffer a whole answer");
    }

    @Test
    void theFirstWordsReachTheCallerWithoutWaitingForTheProvidersNextEvent() {
        // Role and first word leave the provider together, then it thinks for 3 s: the caller must see the word now.
        simulator.account("primary").enqueue(Behavior.reply("early late")
                .firstTokenDelay(Duration.ZERO).eventInterval(Duration.ofSeconds(3)));
        OpenAIClient client = gateway.openAi();
        long start = System.nanoTime();
        long[] firstWordAfter = {-1};
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(question())) {
            stream.stream().forEach(chunk -> chunk.choices().forEach(choice -> choice.delta().content()
                    .filter(content -> !content.isEmpty()).ifPresent(content -> {
                        if (firstWordAfter[0] < 0) {
                            firstWordAfter[0] = System.nanoTime() - start;
                        }
                        text.append(content);
                    })));
        }
        assertEquals("early late", text.toString());
        assertTrue(firstWordAfter[0] < Duration.ofMillis(2_000).toNanos(),
                () -> "the first word arrived after " + firstWordAfter[0] / 1_000_000 + " ms, with the next one");
    }

    @Test
    void streamsOverRawHttpWithServedByHeadersAndEndsWithDone() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, true));

        assertEquals(200, response.statusCode(), response::body);
        assertTrue(header(response, "content-type").startsWith("text/event-stream"));
        assertEquals("primary", header(response, "x-baton-connection"));
        List<String> events = Gateway.dataEvents(response.body());
        assertEquals("[DONE]", events.get(events.size() - 1));
        assertEquals("Hello from primary.", Gateway.streamedText(events));

        JsonObject record = gateway.record(header(response, "x-request-id"));
        assertEquals("ok", record.getString("status"));
        assertTrue(record.getBoolean("stream"));
        assertTrue(record.getBoolean("committed"));
        assertEquals(List.of("primary:200:ok"), attempts(record));
    }

    @Test
    void failsOverToTheStandbyBeforeTheCommitPointAndTheSdkOnlySeesWhoServed() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        OpenAIClient client = gateway.openAi();

        try (HttpResponseFor<ChatCompletion> response = client.chat().completions().withRawResponse()
                .create(question())) {
            ChatCompletion completion = response.parse();

            assertEquals(200, response.statusCode());
            assertEquals("Hello from standby.", completion.choices().get(0).message().content().orElseThrow());
            assertEquals("standby", additional(completion, "connection"));
            assertEquals("standby_a", additional(completion, "route"));
            assertEquals(List.of("standby"), response.headers().values("x-baton-connection"));

            JsonObject record = gateway.record(response.headers().values("x-request-id").get(0));
            assertEquals("ok", record.getString("status"));
            assertEquals("standby", record.getString("connection"));
            List<String> tried = attempts(record);
            assertEquals("standby:200:ok", tried.get(tried.size() - 1), tried::toString);
            assertTrue(tried.subList(0, tried.size() - 1).stream().allMatch("primary:503:server_error"::equals),
                    tried::toString);
            JsonObject first = record.getJsonArray("attempts").getJsonObject(0);
            assertEquals("server_is_overloaded", first.getString("error_code"));
            assertEquals("primary", first.getString("route"));
            assertFalse(first.getBoolean("after_commit"));
        }
        assertTrue(simulator.account("primary").requestCount() >= 1);
        assertEquals(1, simulator.account("standby").requestCount());
    }

    @Test
    void failsOverAStreamBeforeTheFirstOutputWithoutTheSdkNoticing() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = gateway.openAi().chat().completions()
                .createStreaming(question())) {
            stream.stream().forEach(chunk -> chunk.choices().forEach(
                    choice -> choice.delta().content().ifPresent(text::append)));
        }
        assertEquals("Hello from standby.", text.toString());
        assertEquals(1, simulator.account("standby").requestCount());
    }

    @Test
    void raisesAnSdkErrorWhenTheStreamBreaksAfterTheFirstOutputAndNeverReturnsItAsComplete() {
        simulator.account("primary").enqueue(Behavior.ok().cutAfter(2));
        StringBuilder text = new StringBuilder();

        try (StreamResponse<ChatCompletionChunk> stream = gateway.openAi().chat().completions()
                .createStreaming(question())) {
            assertThrows(OpenAIException.class, () -> stream.stream().forEach(chunk -> chunk.choices().forEach(
                    choice -> choice.delta().content().ifPresent(text::append))));
        }
        assertEquals("Hello", text.toString(), "only what arrived before the break");
        assertEquals(0, simulator.account("standby").requestCount(), "nothing is restarted after the commit point");
    }

    @Test
    void endsABrokenStreamWithAnErrorEventAndNoDoneAndRecordsTheBreak() {
        simulator.account("primary").enqueue(Behavior.ok().cutAfter(2));

        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, true));

        assertEquals(200, response.statusCode(), "the status went out with the first event");
        List<String> events = Gateway.dataEvents(response.body());
        assertFalse(events.contains("[DONE]"), response::body);
        String last = events.get(events.size() - 1);
        assertTrue(last.startsWith("{\"error\""), () -> "last event: " + last);
        assertTrue(response.body().contains("\n\nevent: error\ndata: {\"error\""),
                () -> "the error event is named error: " + response.body());
        JsonObject error = Gateway.json(last).getJsonObject("error");
        assertTrue(error.containsKey("message") && error.containsKey("type"), error::toString);
        assertEquals("Hello", Gateway.streamedText(events.subList(0, events.size() - 1)));

        JsonObject record = gateway.record(header(response, "x-request-id"));
        assertEquals("error", record.getString("status"));
        assertTrue(record.getBoolean("stream"));
        assertTrue(record.getBoolean("committed"));
        assertEquals(1, record.getJsonArray("attempts").size(), record::toString);
        JsonObject attempt = record.getJsonArray("attempts").getJsonObject(0);
        assertEquals("primary", attempt.getString("connection"));
        assertTrue(attempt.getBoolean("after_commit"), attempt::toString);
        assertNotEquals(null, Gateway.text(attempt, "kind"), attempt::toString);
    }

    @Test
    void abandonsTheProviderStreamWhenTheClientDisconnectsAndRecordsWhy() throws Exception {
        simulator.account("primary").enqueue(Behavior.reply(
                "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
                        + " seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four")
                .eventInterval(Duration.ofMillis(250)));
        var uri = gateway.uri("v1/chat/completions");
        byte[] body = Gateway.chatBody(Gateway.ROUTE, true).getBytes(StandardCharsets.UTF_8);
        String requestId = null;

        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                    + "\r\nAuthorization: Bearer " + Gateway.KEY + "\r\nContent-Type: application/json\r\n"
                    + "Accept: text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            String status = in.readLine();
            assertTrue(status != null && status.contains(" 200"), () -> "status line: " + status);
            String line;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                if (line.toLowerCase(Locale.ROOT).startsWith("x-request-id:")) {
                    requestId = line.substring(line.indexOf(':') + 1).strip();
                }
            }
            do {
                line = in.readLine();
            } while (line != null && !(line.startsWith("data:") && line.contains("\"one\"")));
            assertTrue(line != null, "the first output event must arrive before the client hangs up");
        } // the client hangs up here, mid-stream

        assertTrue(simulator.account("primary").lastRequest().awaitClientDisconnect(Duration.ofSeconds(10)),
                "Baton must abort the provider exchange when its client leaves, not read the answer to the end");
        assertTrue(requestId != null, "x-request-id must come with the first event");
        JsonObject record = awaitRecord(requestId);
        assertEquals(499, record.getInt("http_status"), record::toString);
        assertEquals("client_closed_request", record.getString("error_code"), record::toString);
        assertTrue(record.getBoolean("committed"), () -> "output reached the client: " + record);
        assertEquals(1, record.getJsonArray("attempts").size(), () -> "the abandoned attempt: " + record);
        assertEquals("primary", record.getJsonArray("attempts").getJsonObject(0).getString("connection"));
    }

    /** The record, once the request has ended; a request still running may not have one yet. */
    private JsonObject awaitRecord(String requestId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        HttpResponse<String> response = gateway.get("v1/requests/" + requestId);
        while (response.statusCode() == 404 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            response = gateway.get("v1/requests/" + requestId);
        }
        assertEquals(200, response.statusCode(), response.body());
        return Gateway.json(response.body());
    }

    @Test
    void listsTheModelsItCanServe() {
        HttpResponse<String> response = gateway.get("v1/models");

        assertEquals(200, response.statusCode(), response::body);
        JsonObject models = Gateway.json(response.body());
        assertEquals("list", models.getString("object"));
        List<String> ids = models.getJsonArray("data").stream()
                .map(v -> v.asJsonObject().getString("id")).toList();
        assertTrue(ids.contains(Gateway.MODEL), ids::toString);
        assertTrue(ids.contains(Gateway.ROUTE), ids::toString);
        assertFalse(ids.contains("internal"), () -> "a route callers may not use is not listed: " + ids);
        assertTrue(response.headers().firstValue("x-request-id").isPresent(), () -> response.headers().map()
                .toString());
    }
}
