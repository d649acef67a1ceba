package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class AnthropicMessagesTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    void answersAJsonMessageShapedLikeAnthropics() throws Exception {
        HttpResponse<String> response = client.message(sim.baseUrl("primary"), "claude-sonnet-4-5");

        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertTrue(response.headers().firstValue("request-id").orElseThrow().matches("req_[0-9A-Za-z]{24}"));
        assertEquals(AnthropicWire.ORGANIZATION_ID,
                response.headers().firstValue("anthropic-organization-id").orElseThrow());
        assertEquals("4000", response.headers().firstValue("anthropic-ratelimit-requests-limit").orElseThrow());
        assertEquals("3999", response.headers().firstValue("anthropic-ratelimit-requests-remaining").orElseThrow());
        Instant.parse(response.headers().firstValue("anthropic-ratelimit-requests-reset").orElseThrow());
        JsonObject body = Client.json(response.body());
        assertTrue(body.getString("id").startsWith("msg_sim"));
        assertEquals("message", body.getString("type"));
        assertEquals("assistant", body.getString("role"));
        assertEquals("claude-sonnet-4-5", body.getString("model"));
        JsonObject text = body.getJsonArray("content").getJsonObject(0);
        assertEquals(1, body.getJsonArray("content").size());
        assertEquals("text", text.getString("type"));
        assertEquals("Hello from primary.", text.getString("text"));
        assertEquals("end_turn", body.getString("stop_reason"));
        assertEquals(JsonValue.NULL, body.get("stop_sequence"));
        JsonObject usage = body.getJsonObject("usage");
        assertTrue(usage.getInt("input_tokens") > 0);
        assertEquals(3, usage.getInt("output_tokens"));
        assertEquals(0, usage.getInt("cache_creation_input_tokens"));
        assertEquals(0, usage.getInt("cache_read_input_tokens"));
    }

    @Test
    void recordsTheAnthropicHeadersWithoutEnforcingThem() throws Exception {
        client.message(sim.baseUrl("a"), "claude-haiku-4-5");
        HttpResponse<String> bare = client.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(sim.baseUrl("a") + "/messages"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Client.messagesBody("claude-haiku-4-5", false)))
                .build());

        RecordedRequest first = sim.account("a").requests().get(0);
        assertEquals("sk-ant-test-secret", first.header("x-api-key").orElseThrow());
        assertEquals("2023-06-01", first.header("anthropic-version").orElseThrow());
        assertEquals("/a/v1/messages", first.path());
        assertEquals(200, bare.statusCode(), "headers are recorded, not enforced");
    }

    @Test
    void streamsNamedEventsFromMessageStartToMessageStop() throws Exception {
        try (Client.Sse sse = client.streamMessage(sim.baseUrl("acct"), "claude-sonnet-4-5")) {
            assertTrue(sse.response.headers().firstValue("content-type").orElseThrow().startsWith("text/event-stream"));
            assertTrue(sse.response.headers().firstValue("request-id").isPresent());
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            assertEquals(List.of("message_start", "content_block_start", "ping", "content_block_delta",
                    "content_block_delta", "content_block_delta", "content_block_stop", "message_delta",
                    "message_stop"), drained.names());
            List<JsonObject> data = drained.events().stream().map(Client::json).toList();
            for (int i = 0; i < data.size(); i++) {
                assertEquals(drained.names().get(i), data.get(i).getString("type"), "type matches event name");
            }
            JsonObject start = data.get(0).getJsonObject("message");
            assertTrue(start.getJsonArray("content").isEmpty());
            assertEquals(JsonValue.NULL, start.get("stop_reason"));
            assertTrue(start.getJsonObject("usage").getInt("input_tokens") > 0);
            JsonObject block = data.get(1);
            assertEquals(0, block.getInt("index"));
            assertEquals("text", block.getJsonObject("content_block").getString("type"));
            assertEquals("", block.getJsonObject("content_block").getString("text"));
            assertEquals(List.of("Hello", " from", " acct."), data.subList(3, 6).stream().map(d -> {
                assertEquals("text_delta", d.getJsonObject("delta").getString("type"));
                return d.getJsonObject("delta").getString("text");
            }).toList());
            assertEquals(0, data.get(6).getInt("index"));
            assertEquals("end_turn", data.get(7).getJsonObject("delta").getString("stop_reason"));
            assertEquals(3, data.get(7).getJsonObject("usage").getInt("output_tokens"));
        }
    }

    @Test
    void refusesARequestWithoutMaxTokensWithoutConsumingTheScript() throws Exception {
        sim.account("a").enqueue(Behavior.serverError());

        HttpResponse<String> response = client.send(Client.messages(sim.baseUrl("a"),
                "{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}").build());
        HttpResponse<String> notJson = client.send(Client.messages(sim.baseUrl("a"), "nope").build());

        assertEquals(400, response.statusCode());
        JsonObject body = Client.json(response.body());
        assertEquals("error", body.getString("type"));
        assertEquals("invalid_request_error", body.getJsonObject("error").getString("type"));
        assertEquals("max_tokens: Field required", body.getJsonObject("error").getString("message"));
        assertEquals(response.headers().firstValue("request-id").orElseThrow(), body.getString("request_id"));
        assertEquals(400, notJson.statusCode());
        assertEquals(500, client.message(sim.baseUrl("a"), "claude-sonnet-4-5").statusCode());
    }

    @Test
    void refusesModelsTheAccountDoesNotServeInAnthropicsShape() throws Exception {
        sim.account("a").serves("claude-sonnet-4-5");

        HttpResponse<String> refused = client.message(sim.baseUrl("a"), "claude-2");

        assertEquals(404, refused.statusCode());
        JsonObject error = Client.json(refused.body()).getJsonObject("error");
        assertEquals("not_found_error", error.getString("type"));
        assertEquals("model: claude-2", error.getString("message"));
    }
}
