package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ChatCompletionsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    void answersAJsonCompletionShapedLikeOpenAis() throws Exception {
        HttpResponse<String> response = client.complete(sim.baseUrl("primary"), "gpt-4o-mini");

        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertTrue(response.headers().firstValue("x-request-id").orElseThrow().matches("req_[0-9a-f]{32}"));
        assertEquals("2020-10-01", response.headers().firstValue("openai-version").orElseThrow());
        assertTrue(response.headers().firstValue("openai-processing-ms").isPresent());
        assertTrue(response.headers().firstValue("x-ratelimit-remaining-requests").isPresent());
        assertTrue(response.headers().firstValue("x-ratelimit-reset-requests").orElseThrow().matches("\\d+m?s"));
        JsonObject body = Client.json(response.body());
        assertTrue(body.getString("id").startsWith("chatcmpl-sim"));
        assertEquals("chat.completion", body.getString("object"));
        assertEquals("gpt-4o-mini", body.getString("model"));
        JsonObject choice = body.getJsonArray("choices").getJsonObject(0);
        assertEquals("assistant", choice.getJsonObject("message").getString("role"));
        assertEquals("Hello from primary.", choice.getJsonObject("message").getString("content"));
        assertEquals(JsonValue.NULL, choice.getJsonObject("message").get("refusal"));
        assertEquals("stop", choice.getString("finish_reason"));
        JsonObject usage = body.getJsonObject("usage");
        assertEquals(3, usage.getInt("completion_tokens"));
        assertEquals(usage.getInt("prompt_tokens") + 3, usage.getInt("total_tokens"));
        assertEquals(JsonValue.NULL, body.get("system_fingerprint"));
    }

    @Test
    void streamsARoleChunkThenOneChunkPerWordThenTheFinishChunkAndDone() throws Exception {
        try (Client.Sse sse = client.stream(sim.baseUrl("acct"), "gpt-4o", false)) {
            assertEquals("text/event-stream", sse.response.headers().firstValue("content-type").orElseThrow());
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            List<String> events = drained.events();
            assertEquals(6, events.size(), events::toString);
            JsonObject role = Client.json(events.get(0));
            String id = role.getString("id");
            assertEquals("chat.completion.chunk", role.getString("object"));
            JsonObject roleChoice = role.getJsonArray("choices").getJsonObject(0);
            assertEquals("assistant", roleChoice.getJsonObject("delta").getString("role"));
            assertEquals("", roleChoice.getJsonObject("delta").getString("content"));
            assertEquals(JsonValue.NULL, roleChoice.get("finish_reason"));
            assertEquals(List.of("Hello", " from", " acct."), events.subList(1, 4).stream()
                    .map(e -> delta(e).getString("content")).toList());
            JsonObject finish = Client.json(events.get(4));
            assertEquals(JsonValue.EMPTY_JSON_OBJECT, delta(events.get(4)));
            assertEquals("stop", finish.getJsonArray("choices").getJsonObject(0).getString("finish_reason"));
            assertFalse(finish.containsKey("usage"));
            events.subList(0, 5).forEach(e -> assertEquals(id, Client.json(e).getString("id")));
            assertEquals("[DONE]", events.get(5));
        }
    }

    @Test
    void sendsTheUsageChunkBeforeDoneWhenTheRequestAsksForIt() throws Exception {
        try (Client.Sse sse = client.stream(sim.baseUrl("acct"), "gpt-4o", true)) {
            List<String> events = sse.drain().events();

            assertEquals(7, events.size(), events::toString);
            events.subList(0, 5).forEach(e -> assertEquals(JsonValue.NULL, Client.json(e).get("usage")));
            JsonObject usageChunk = Client.json(events.get(5));
            assertTrue(usageChunk.getJsonArray("choices").isEmpty());
            assertEquals(3, usageChunk.getJsonObject("usage").getInt("completion_tokens"));
            assertEquals("[DONE]", events.get(6));
        }
    }

    @Test
    void keepsTheConnectionAliveBetweenRequests() throws Exception {
        Client fresh = new Client();
        int before = sim.simulator().acceptedConnections();

        assertEquals(200, fresh.complete(sim.baseUrl("a"), "gpt-4o").statusCode());
        assertEquals(200, fresh.complete(sim.baseUrl("a"), "gpt-4o").statusCode());

        assertEquals(before + 1, sim.simulator().acceptedConnections());
        assertEquals(2, sim.account("a").requestCount());
    }

    @Test
    void readsAChunkedRequestBody() throws Exception {
        byte[] body = Client.chatBody("gpt-4o", false, false).getBytes(StandardCharsets.UTF_8);
        HttpRequest request = Client.chat(sim.baseUrl("a"), "")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();

        assertEquals(200, client.send(request).statusCode());
        RecordedRequest recorded = sim.account("a").lastRequest();
        assertEquals("chunked", recorded.header("Transfer-Encoding").orElseThrow());
        assertEquals("gpt-4o", recorded.json().getString("model"));
    }

    @Test
    void listsTheModelsAnAccountServes() throws Exception {
        sim.account("a").serves("model-b", "model-a");

        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create(sim.baseUrl("a") + "/models")).build());

        assertEquals(200, response.statusCode());
        JsonObject body = Client.json(response.body());
        assertEquals("list", body.getString("object"));
        assertEquals(List.of("model-a", "model-b"), body.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .map(m -> m.getString("id")).toList());
    }

    @Test
    void refusesModelsTheAccountDoesNotServe() throws Exception {
        sim.account("a").serves("gpt-4o");

        HttpResponse<String> refused = client.complete(sim.baseUrl("a"), "gpt-3.5-turbo");
        HttpResponse<String> served = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals(404, refused.statusCode());
        JsonObject error = Client.json(refused.body()).getJsonObject("error");
        assertEquals("model_not_found", error.getString("code"));
        assertTrue(error.getString("message").contains("gpt-3.5-turbo"));
        assertEquals(200, served.statusCode());
    }

    @Test
    void answersUnknownPathsWithAnOpenAiShaped404() throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create(sim.baseUrl("a") + "/audio/speech"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build());

        assertEquals(404, response.statusCode());
        JsonObject error = Client.json(response.body()).getJsonObject("error");
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals("Invalid URL (POST /a/v1/audio/speech)", error.getString("message"));
    }

    @Test
    void refusesABodyThatIsNotJsonWithoutConsumingTheScript() throws Exception {
        sim.account("a").enqueue(Behavior.serverError());

        HttpResponse<String> response = client.send(Client.chat(sim.baseUrl("a"), "not json").build());

        assertEquals(400, response.statusCode());
        assertEquals(500, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode());
    }

    private static JsonObject delta(String event) {
        return Client.json(event).getJsonArray("choices").getJsonObject(0).getJsonObject("delta");
    }
}
