package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.exception.FailoverException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Responses API through the engine over real HTTP: as it is to accounts that speak it, translated through chat
 * completions to those that do not, with the same failover, commit point and record as chat.
 */
class ResponsesApiTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    /**
     * Route "chat": OpenAI accounts a and b (Responses as it is), then Anthropic account claude; route "compat": the
     * OpenAI-compatible account compat, which is sent chat completions.
     */
    private FailoverEngine start() {
        Map<String, String> props = connections(sim.simulator(), "openai", "gpt-5.4-mini", List.of("a", "b"));
        props.put("baton.connections.a.responses", "native");
        props.put("baton.connections.b.responses", "native");
        props.putAll(connections(sim.simulator(), "openai", "gpt-5.4-mini", List.of("compat")));
        props.putAll(connections(sim.simulator(), "anthropic", "claude-haiku-5-5", List.of("claude")));
        props.put("baton.routes.chat.targets", "a/gpt-5.4-mini, b/gpt-5.4-mini, claude/claude-haiku-5-5");
        props.put("baton.routes.chat.first-token-timeout", "2s");
        props.put("baton.routes.chat.retry-backoff", "10ms");
        props.put("baton.routes.compat.targets", "compat/gpt-5.4-mini");
        props.put("baton.routes.claude.targets", "claude/claude-haiku-5-5");
        return EngineFixture.engine(props, new VirtualTime());
    }

    private static Call call(String model, boolean stream, JsonObject... tools) {
        var body = Json.createObjectBuilder().add("model", model).add("instructions", "Be brief.")
                .add("input", "Weather in Oslo?").add("max_output_tokens", 300).add("stream", stream);
        if (tools.length > 0) {
            var array = Json.createArrayBuilder();
            for (JsonObject tool : tools) {
                array.add(tool);
            }
            body.add("tools", array);
        }
        return new Call(ChatRequest.fromJson(body.build()), PolicyOverride.NONE, false, null, Api.RESPONSES);
    }

    private static JsonObject weatherTool() {
        return Json.createObjectBuilder().add("type", "function").add("name", "get_weather")
                .add("description", "Weather for a city").add("parameters", Json.createObjectBuilder()
                        .add("type", "object").add("properties", Json.createObjectBuilder()
                                .add("city", Json.createObjectBuilder().add("type", "string")))).build();
    }

    private static String outputText(JsonObject response) {
        StringBuilder text = new StringBuilder();
        for (JsonObject item : response.getJsonArray("output").getValuesAs(JsonObject.class)) {
            if (item.getString("type").equals("message")) {
                item.getJsonArray("content").getValuesAs(JsonObject.class).stream()
                        .filter(p -> p.getString("type").equals("output_text"))
                        .forEach(p -> text.append(p.getString("text")));
            }
        }
        return text.toString();
    }

    @Test
    void aResponseFailsOverBetweenAccountsThatSpeakTheResponsesApi() {
        FailoverEngine engine = start();
        sim.account("a").setDefault(Behavior.overloaded());

        ChatResponse answer = engine.complete(call("chat", false)).join();

        assertEquals("response", answer.body().getString("object"));
        assertEquals("Hello from b.", outputText(answer.body()));
        assertEquals("b", answer.servedBy().connection());
        var sent = sim.account("b").lastRequest();
        assertTrue(sent.path().endsWith("/v1/responses"), sent.path());
        assertEquals("gpt-5.4-mini", sent.json().getString("model"));
        assertEquals("Weather in Oslo?", sent.json().getString("input"), "the body goes as it is");
        assertEquals(300, sent.json().getInt("max_output_tokens"));
        RequestRecord record = engine.findRecord(answer.requestId()).orElseThrow();
        assertEquals(List.of("a", "b"), record.attempts().stream().map(at -> at.connection()).distinct().toList());
        assertTrue(record.usage().getInt("prompt_tokens") > 0, "usage in the chat shape: " + record.usage());
    }

    @Test
    void aResponseIsTranslatedForAnAccountThatDoesNotSpeakIt() {
        FailoverEngine engine = start();
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.overloaded());
        sim.account("claude").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        ChatResponse answer = engine.complete(call("chat", false, weatherTool())).join();

        assertEquals("claude", answer.servedBy().connection());
        JsonObject response = answer.body();
        assertEquals("response", response.getString("object"));
        assertEquals("completed", response.getString("status"));
        JsonObject call = response.getJsonArray("output").getValuesAs(JsonObject.class).stream()
                .filter(i -> i.getString("type").equals("function_call")).findFirst().orElseThrow();
        assertEquals("get_weather", call.getString("name"));
        assertTrue(call.getString("arguments").contains("Oslo"));
        assertTrue(response.getJsonObject("usage").getInt("input_tokens") > 0);
        JsonObject sent = sim.account("claude").lastRequest().json();
        assertEquals("Be brief.", sent.getString("system"), "instructions become Anthropic's system prompt");
        assertEquals(300, sent.getInt("max_tokens"));
        assertEquals("get_weather", sent.getJsonArray("tools").getJsonObject(0).getString("name"));
    }

    @Test
    void aCompatibleHostIsSentChatCompletionsUnlessItsConnectionSaysOtherwise() {
        FailoverEngine engine = start();

        ChatResponse answer = engine.complete(call("compat", false)).join();

        assertEquals("Hello from compat.", outputText(answer.body()));
        assertTrue(sim.account("compat").lastRequest().path().endsWith("/v1/chat/completions"));
    }

    @Test
    void whatCannotBeTranslatedFailsThatTargetNamingTheField() {
        FailoverEngine engine = start();
        JsonObject search = Json.createObjectBuilder().add("type", "web_search").build();

        var error = assertInstanceOf(FailoverException.class, failure(engine.complete(call("claude", false, search))));

        assertEquals(400, error.httpStatus(), error.getMessage());
        assertTrue(error.getMessage().contains("tools[0]"), error.getMessage());
        assertEquals(0, sim.account("claude").requestCount(), "nothing was sent");
    }

    @Test
    void aStreamFailsOverBeforeItsFirstOutputAndIsRelayedEventByEvent() throws Exception {
        FailoverEngine engine = start();
        sim.account("a").setDefault(Behavior.ok().cutAfter(2)); // cut before the first delta

        List<ChatChunk> events = stream(engine, call("chat", true));

        List<String> types = events.stream().map(e -> e.body().getString("type")).toList();
        assertEquals("response.created", types.get(0));
        assertEquals("response.completed", types.get(types.size() - 1));
        String text = events.stream().filter(e -> e.body().getString("type").equals("response.output_text.delta"))
                .map(e -> e.body().getString("delta")).collect(Collectors.joining());
        assertEquals("Hello from b.", text);
        assertEquals("b", events.get(0).servedBy().connection());
    }

    @Test
    void aTranslatedStreamCarriesTheToolCallAsResponsesEvents() throws Exception {
        FailoverEngine engine = start();
        sim.account("a").setDefault(Behavior.overloaded());
        sim.account("b").setDefault(Behavior.overloaded());
        sim.account("claude").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        List<ChatChunk> events = stream(engine, call("chat", true, weatherTool()));

        String arguments = events.stream()
                .filter(e -> e.body().getString("type").equals("response.function_call_arguments.delta"))
                .map(e -> e.body().getString("delta")).collect(Collectors.joining());
        assertEquals("{\"city\":\"Oslo\"}", arguments.replace(" ", ""));
        JsonObject completed = events.get(events.size() - 1).body();
        assertEquals("response.completed", completed.getString("type"));
        JsonArray output = completed.getJsonObject("response").getJsonArray("output");
        assertEquals("function_call", output.getJsonObject(output.size() - 1).getString("type"));
        assertEquals("claude", events.get(0).servedBy().connection());
    }

    @Test
    void aStreamCutAfterItsFirstOutputEndsInAnInterruptionNeverACompletion() throws Exception {
        FailoverEngine engine = start();
        sim.account("a").setDefault(Behavior.reply("one two three four five six").cutAfter(6));

        EngineFixture.Collector collector = new EngineFixture.Collector();
        engine.stream(call("chat", true)).subscribe(collector);

        assertInstanceOf(StreamInterruptedException.class, failure(collector.done));
        assertTrue(collector.chunks.stream().noneMatch(e -> e.body().getString("type").equals("response.completed")));
        assertTrue(collector.chunks.stream().anyMatch(e -> e.body().getString("type").equals("response.output_text.delta")));
        assertEquals(0, sim.account("b").requestCount(), "nothing is restarted after the commit point");
    }

    private static List<ChatChunk> stream(FailoverEngine engine, Call call) throws Exception {
        EngineFixture.Collector collector = new EngineFixture.Collector();
        engine.stream(call).subscribe(collector);
        collector.done.get(30, TimeUnit.SECONDS);
        assertNotNull(collector.chunks);
        return List.copyOf(collector.chunks);
    }

    /** What {@code future} failed with; it must fail within 30 s. */
    static Throwable failure(CompletableFuture<?> future) {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError("expected a failure within 30 s", e);
        }
        throw new AssertionError("expected a failure");
    }
}
