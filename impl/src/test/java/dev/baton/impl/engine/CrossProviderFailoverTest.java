package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OpenAI ⇄ Anthropic failover over real HTTP: the caller speaks OpenAI and cannot tell but by who served. */
class CrossProviderFailoverTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private FailoverEngine engine;


    /** Route "chat": OpenAI account gpt (model gpt-5.4-mini), then Anthropic account claude (claude-haiku-5-5), or the reverse. */
    private FailoverEngine start(boolean openAiFirst) {
        Map<String, String> props = connections(sim.simulator(), "openai", "gpt-5.4-mini", java.util.List.of("gpt"));
        props.putAll(connections(sim.simulator(), "anthropic", "claude-haiku-5-5", java.util.List.of("claude")));
        props.put("baton.routes.chat.targets", openAiFirst
                ? "gpt/gpt-5.4-mini, claude/claude-haiku-5-5" : "claude/claude-haiku-5-5, gpt/gpt-5.4-mini");
        props.put("baton.routes.chat.first-token-timeout", "2s");
        props.put("baton.routes.chat.retry-backoff", "10ms");
        engine = EngineFixture.engine(props, new VirtualTime());
        return engine;
    }

    private static ChatRequest withTools(boolean stream) {
        JsonObject tool = Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", "get_weather").add("description", "Weather for a city")
                .add("parameters", Json.createObjectBuilder().add("type", "object").add("properties",
                        Json.createObjectBuilder().add("city", Json.createObjectBuilder().add("type", "string"))))).build();
        return ChatRequest.builder().model("chat").message("system", "Be brief.").message("user", "Weather in Oslo?")
                .param("tools", Json.createArrayBuilder().add(tool).build()).param("max_tokens", 300L)
                .stream(stream).build();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anOverloadedOpenAiAccountFailsOverToAnthropic(Mode mode) {
        start(true);
        sim.account("gpt").setDefault(Behavior.overloaded());

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from claude.", outcome.text());
        assertEquals("anthropic", outcome.servedBy().provider());
        assertEquals("claude-haiku-5-5", outcome.servedBy().model());
        JsonObject sent = sim.account("claude").lastRequest().json();
        assertEquals("claude-haiku-5-5", sent.getString("model"));
        JsonObject first = sent.getJsonArray("messages").getJsonObject(0);
        assertEquals("user", first.getString("role"));
        assertTrue(first.toString().contains("Say hello."), "the user message in Anthropic's shape: " + sent);
        assertEquals("2023-06-01", sim.account("claude").lastRequest().header("anthropic-version").orElseThrow());
        assertTrue(sim.account("claude").lastRequest().header("x-api-key").isPresent());
        assertTrue(sim.account("claude").lastRequest().header("authorization").isEmpty(), "Anthropic takes x-api-key");
    }

    @Test
    void aStreamedToolCallFromAnthropicArrivesAsOpenAiToolCallDeltas() {
        start(true);
        sim.account("gpt").setDefault(Behavior.ok().cutAfter(1)); // fails after its role chunk: before the commit point
        sim.account("claude").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        Outcome outcome = Mode.STREAM.call(engine, withTools(true));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("anthropic", outcome.servedBy().provider());
        StringBuilder arguments = new StringBuilder();
        String name = null;
        for (ChatChunk chunk : outcome.chunks()) {
            JsonArray choices = chunk.body().getJsonArray("choices");
            if (choices == null || choices.isEmpty()) {
                continue;
            }
            JsonObject delta = choices.getJsonObject(0).getJsonObject("delta");
            if (delta != null && delta.get("tool_calls") instanceof JsonArray calls) {
                JsonObject call = calls.getJsonObject(0);
                assertEquals(0, call.getInt("index"), "OpenAI tool-call index, not Anthropic's block index");
                JsonObject function = call.getJsonObject("function");
                if (function.containsKey("name")) {
                    name = function.getString("name");
                }
                arguments.append(function.getString("arguments", ""));
            }
        }
        assertEquals("get_weather", name);
        assertEquals("Oslo", Json.createReader(new java.io.StringReader(arguments.toString())).readObject().getString("city"));
        assertEquals("tool_calls", outcome.chunks().stream().map(ChatChunk::finishReason)
                .filter(java.util.Objects::nonNull).findFirst().orElseThrow());
        long roles = outcome.chunks().stream().filter(c -> c.body().getJsonArray("choices") != null
                && !c.body().getJsonArray("choices").isEmpty()
                && c.body().getJsonArray("choices").getJsonObject(0).getJsonObject("delta").containsKey("role")).count();
        assertEquals(1, roles, "the failed OpenAI attempt left nothing in the caller's stream");

        JsonObject sent = sim.account("claude").lastRequest().json();
        assertEquals("Be brief.", sent.getString("system"), "system message hoisted");
        assertEquals("get_weather", sent.getJsonArray("tools").getJsonObject(0).getString("name"));
        assertEquals(300, sent.getInt("max_tokens"));
    }

    @Test
    void aStreamedToolCallFailsOverFromAnthropicToOpenAiUnchanged() {
        start(false);
        sim.account("claude").setDefault(Behavior.overloaded());
        sim.account("gpt").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        Outcome outcome = Mode.STREAM.call(engine, withTools(true));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("openai", outcome.servedBy().provider());
        assertEquals("tool_calls", outcome.chunks().stream().map(ChatChunk::finishReason)
                .filter(java.util.Objects::nonNull).findFirst().orElseThrow());
        JsonObject sent = sim.account("gpt").lastRequest().json();
        assertEquals("get_weather", sent.getJsonArray("tools").getJsonObject(0).getJsonObject("function").getString("name"),
                "the OpenAI target gets the caller's body untouched");
        assertEquals("system", sent.getJsonArray("messages").getJsonObject(0).getString("role"));
    }

    @Test
    void aNonStreamedToolCallFromAnthropicIsAnOpenAiToolCall() {
        start(true);
        sim.account("gpt").setDefault(Behavior.serverError());
        sim.account("claude").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        var response = engine.complete(Call.of(withTools(false))).join();

        JsonObject message = response.body().getJsonArray("choices").getJsonObject(0).getJsonObject("message");
        JsonObject call = message.getJsonArray("tool_calls").getJsonObject(0);
        assertEquals("get_weather", call.getJsonObject("function").getString("name"));
        assertTrue(call.getJsonObject("function").getString("arguments").contains("Oslo"));
        assertEquals("tool_calls", response.finishReason());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anOverloadedAnthropicAccountFailsOverToOpenAi(Mode mode) {
        start(false);
        sim.account("claude").setDefault(Behavior.overloaded()); // 529 overloaded_error

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertEquals("Hello from gpt.", outcome.text());
        RequestRecord record = engine.findRecord(outcome.requestId()).orElseThrow();
        assertEquals(529, record.attempts().get(0).httpStatus());
        assertEquals(FailureKind.SERVER_ERROR, record.attempts().get(0).kind());
    }

    @Test
    void anAnthropicErrorEventAfterMessageStartStillFailsOverInvisibly() {
        start(false);
        sim.account("claude").setDefault(Behavior.ok().streamErrorAfter(1, "overloaded_error", null, "Overloaded"));

        Outcome outcome = Mode.STREAM.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from gpt.", outcome.text());
        RequestRecord record = engine.findRecord(outcome.requestId()).orElseThrow();
        assertEquals(3, record.attempts().size(), "claude, its one retry, then gpt");
        assertFalse(record.attempts().get(0).afterCommit());
    }

    @Test
    void anAnthropicErrorEventAfterTheFirstTextEndsTheStreamWithoutRestart() {
        start(false);
        // message_start, content_block_start, ping, first text delta: then the error
        sim.account("claude").enqueue(Behavior.ok().streamErrorAfter(4, "overloaded_error", null, "Overloaded"));

        Outcome outcome = Mode.STREAM.call(engine, ChatRequest.of("chat", "Say hello."));

        assertInstanceOf(StreamInterruptedException.class, outcome.error());
        assertFalse(outcome.chunks().isEmpty());
        assertEquals(0, sim.account("gpt").requestCount());
    }

    static Stream<Arguments> anthropicSpendLimits() {
        return Stream.of(Behavior.billingError(), Behavior.enforcedSpendLimit(), Behavior.usageLimitReached(),
                        Behavior.workspaceUsageLimitReached())
                .flatMap(b -> Stream.of(Mode.values()).map(m -> Arguments.of(b, m)));
    }

    /** 402, the tier's 429 spend cap and both 400 self-set limits: another account serves, the first is asked once. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("anthropicSpendLimits")
    void anAnthropicSpendLimitMovesToAnotherAccountAndNeverBackToTheSameOne(Behavior limit, Mode mode) {
        start(false);
        sim.account("claude").setDefault(limit);

        Outcome first = mode.call(engine, ChatRequest.of("chat", "Say hello."));
        Outcome second = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(first.ok(), () -> "failed: " + first.error());
        assertEquals("gpt", first.servedBy().connection());
        assertEquals("gpt", second.servedBy().connection());
        RequestRecord record = engine.findRecord(first.requestId()).orElseThrow();
        assertEquals(FailureKind.SPEND_LIMIT, record.attempts().get(0).kind());
        assertEquals(2, record.attempts().size(), "one attempt on the limited account, none retried");
        assertEquals(1, sim.account("claude").requestCount(), "parked after the first: the second request skips it");
    }

    @Test
    void aRequestAnthropicCannotHonourIsRefusedThereAndServedByOpenAi() {
        start(false);

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.builder().model("chat").message("user", "hi")
                .param("n", 3L).build());

        assertEquals("openai", outcome.servedBy().provider());
        assertEquals(0, sim.account("claude").requestCount(), "refused before any request left");
        RequestRecord record = engine.findRecord(outcome.requestId()).orElseThrow();
        assertEquals(FailureKind.INVALID_REQUEST, record.attempts().get(0).kind());
        assertTrue(record.attempts().get(0).message().contains("n"), record.attempts().get(0).message());
    }
}
