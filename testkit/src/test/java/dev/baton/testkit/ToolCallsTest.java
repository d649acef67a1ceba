package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ToolCallsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static final String ARGS = "{\"city\":\"Oslo\",\"unit\":\"celsius\"}";

    private final Client client = new Client();

    @Test
    void openAiJsonCarriesToolCallsWithNullContent() throws Exception {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", ARGS));

        JsonObject choice = Client.json(client.complete(sim.baseUrl("a"), "gpt-4o").body())
                .getJsonArray("choices").getJsonObject(0);

        assertEquals("tool_calls", choice.getString("finish_reason"));
        JsonObject message = choice.getJsonObject("message");
        assertEquals(JsonValue.NULL, message.get("content"));
        JsonObject call = message.getJsonArray("tool_calls").getJsonObject(0);
        assertTrue(call.getString("id").startsWith("call_"));
        assertEquals("function", call.getString("type"));
        assertEquals("get_weather", call.getJsonObject("function").getString("name"));
        assertEquals(ARGS, call.getJsonObject("function").getString("arguments"));
    }

    @Test
    void openAiStreamSendsTheCallThenArgumentFragmentsThenTheFinishReason() throws Exception {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", ARGS));

        try (Client.Sse sse = client.stream(sim.baseUrl("a"), "gpt-4o", false)) {
            List<String> events = sse.drain().events();

            assertEquals("[DONE]", events.get(events.size() - 1));
            List<JsonObject> deltas = events.subList(0, events.size() - 1).stream()
                    .map(e -> Client.json(e).getJsonArray("choices").getJsonObject(0).getJsonObject("delta")).toList();
            assertEquals("assistant", deltas.get(0).getString("role"));
            JsonObject opening = deltas.get(1).getJsonArray("tool_calls").getJsonObject(0);
            assertEquals(0, opening.getInt("index"));
            assertTrue(opening.getString("id").startsWith("call_"));
            assertEquals("function", opening.getString("type"));
            assertEquals("get_weather", opening.getJsonObject("function").getString("name"));
            assertEquals("", opening.getJsonObject("function").getString("arguments"));
            List<JsonObject> fragments = deltas.subList(2, deltas.size() - 1).stream()
                    .map(d -> d.getJsonArray("tool_calls").getJsonObject(0)).toList();
            assertTrue(fragments.size() >= 2 && fragments.size() <= 3, fragments::toString);
            fragments.forEach(f -> assertEquals(List.of("index", "function"), List.copyOf(f.keySet())));
            assertEquals(ARGS, String.join("", fragments.stream()
                    .map(f -> f.getJsonObject("function").getString("arguments")).toList()));
            assertEquals("tool_calls", Client.json(events.get(events.size() - 2)).getJsonArray("choices")
                    .getJsonObject(0).getString("finish_reason"));
        }
    }

    @Test
    void anthropicJsonCarriesAToolUseBlock() throws Exception {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", ARGS));

        JsonObject body = Client.json(client.message(sim.baseUrl("a"), "claude-sonnet-4-5").body());

        assertEquals("tool_use", body.getString("stop_reason"));
        assertEquals(1, body.getJsonArray("content").size());
        JsonObject block = body.getJsonArray("content").getJsonObject(0);
        assertEquals("tool_use", block.getString("type"));
        assertTrue(block.getString("id").startsWith("toolu_"));
        assertEquals("get_weather", block.getString("name"));
        assertEquals(Client.json(ARGS), block.getJsonObject("input"));
    }

    @Test
    void anthropicStreamSendsInputJsonDeltas() throws Exception {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", ARGS));

        try (Client.Sse sse = client.streamMessage(sim.baseUrl("a"), "claude-sonnet-4-5")) {
            Client.Drained drained = sse.drain();
            List<String> names = drained.names();
            List<JsonObject> data = drained.events().stream().map(Client::json).toList();

            assertEquals(List.of("message_start", "content_block_start", "ping"), names.subList(0, 3));
            assertEquals(List.of("content_block_stop", "message_delta", "message_stop"),
                    names.subList(names.size() - 3, names.size()));
            JsonObject block = data.get(1).getJsonObject("content_block");
            assertEquals("tool_use", block.getString("type"));
            assertEquals("get_weather", block.getString("name"));
            assertEquals(JsonValue.EMPTY_JSON_OBJECT, block.getJsonObject("input"));
            List<JsonObject> deltas = data.subList(3, data.size() - 3).stream().map(d -> d.getJsonObject("delta"))
                    .toList();
            assertTrue(deltas.size() >= 2 && deltas.size() <= 3, deltas::toString);
            deltas.forEach(d -> assertEquals("input_json_delta", d.getString("type")));
            assertEquals(ARGS, String.join("", deltas.stream().map(d -> d.getString("partial_json")).toList()));
            assertEquals("tool_use", data.get(data.size() - 2).getJsonObject("delta").getString("stop_reason"));
        }
    }

    @Test
    void replyThenToolCallSendsTextFirstOnBothWires() throws Exception {
        Behavior both = Behavior.reply("Let me check.").thenToolCall("get_weather", ARGS);
        sim.account("a").enqueue(both, both);

        JsonObject message = Client.json(client.complete(sim.baseUrl("a"), "gpt-4o").body())
                .getJsonArray("choices").getJsonObject(0).getJsonObject("message");
        JsonObject anthropic = Client.json(client.message(sim.baseUrl("a"), "claude-sonnet-4-5").body());

        assertEquals("Let me check.", message.getString("content"));
        assertEquals("get_weather", message.getJsonArray("tool_calls").getJsonObject(0)
                .getJsonObject("function").getString("name"));
        assertEquals(List.of("text", "tool_use"), anthropic.getJsonArray("content").getValuesAs(JsonObject.class)
                .stream().map(b -> b.getString("type")).toList());
        assertEquals("tool_use", anthropic.getString("stop_reason"));
    }

    @Test
    void refusesNamesAndArgumentsNoProviderWouldSend() {
        assertThrows(IllegalArgumentException.class, () -> Behavior.toolCall("get weather", "{}"));
        assertThrows(IllegalArgumentException.class, () -> Behavior.toolCall("f", "[1]"));
        assertThrows(IllegalArgumentException.class, () -> Behavior.toolCall("f", "{\"a\":"));
        assertThrows(IllegalStateException.class, () -> Behavior.ok().thenToolCall("f", "{}"));
        assertThrows(IllegalStateException.class, () -> Behavior.serverError().thenToolCall("f", "{}"));
    }

    @Test
    void fragmentsSplitJsonIntoTwoOrThreePieces() {
        assertEquals(List.of("{\"city\":\"O", "slo\",\"unit\"", ":\"celsius\"}"), WireFormat.fragments(ARGS));
        assertEquals(List.of("{", "}"), WireFormat.fragments("{}"));
        String emoji = "{\"a\":\"\uD83D\uDE00\uD83D\uDE00\"}";
        assertEquals(emoji, String.join("", WireFormat.fragments(emoji)));
        WireFormat.fragments(emoji).forEach(f -> assertTrue(!Character.isLowSurrogate(f.charAt(0)), f));
    }
}
