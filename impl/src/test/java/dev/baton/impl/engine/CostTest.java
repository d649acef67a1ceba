package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.Cost;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.PriceList;
import dev.baton.wire.RawJsonObject;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cost per request over real HTTP against the simulator, with golden prices: the served model's rate applies, in
 * whole answers, in a stream's usage chunk, in the record; an unpriced model has {@code cost: null}.
 */
class CostTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    /** Custom prices, per million tokens: dear for the primary's model, cheap for the standby's. */
    private static final BigDecimal DEAR_IN = new BigDecimal("3.00");
    private static final BigDecimal DEAR_OUT = new BigDecimal("15.00");
    private static final BigDecimal CHEAP_IN = new BigDecimal("0.25");
    private static final BigDecimal CHEAP_OUT = new BigDecimal("2.00");

    private FailoverEngine start() {
        Map<String, String> props = connections(sim.simulator(), "dear-model", "primary");
        props.putAll(connections(sim.simulator(), "cheap-model", "standby"));
        props.putAll(connections(sim.simulator(), "free-model", "unpriced"));
        props.putAll(connections(sim.simulator(), "gpt-4o-mini", "listed"));
        props.put("baton.models.dear-model.price.input", DEAR_IN.toPlainString());
        props.put("baton.models.dear-model.price.output", DEAR_OUT.toPlainString());
        props.put("baton.models.cheap-model.price.input", CHEAP_IN.toPlainString());
        props.put("baton.models.cheap-model.price.cached-input", "0.025");
        props.put("baton.models.cheap-model.price.output", CHEAP_OUT.toPlainString());
        props.put("baton.routes.chat.targets", "primary/dear-model, standby/cheap-model");
        props.put("baton.routes.chat.same-target-retries", "0");
        return EngineFixture.engine(props, new VirtualTime());
    }

    /** What the usage costs at {@code in}/{@code out} per million, computed here from the tokens the provider reported. */
    private static BigDecimal expected(JsonObject usage, BigDecimal in, BigDecimal out) {
        return in.multiply(BigDecimal.valueOf(usage.getInt("prompt_tokens")))
                .add(out.multiply(BigDecimal.valueOf(usage.getInt("completion_tokens"))))
                .divide(BigDecimal.valueOf(1_000_000));
    }

    private static void assertAmount(BigDecimal expected, BigDecimal actual) {
        assertEquals(0, expected.compareTo(actual), () -> "expected " + expected + " but was " + actual);
    }

    @Test
    void aWholeAnswerCarriesItsCostAtTheCustomRateInTheResponseTheJsonAndTheRecord() {
        FailoverEngine engine = start();
        ChatResponse answer = engine.complete(Call.of(ChatRequest.of("dear-model", "Say hello to the team."))).join();

        JsonObject usage = answer.usage().orElseThrow();
        assertTrue(usage.getInt("prompt_tokens") > 0 && usage.getInt("completion_tokens") > 0, usage::toString);
        BigDecimal expected = expected(usage, DEAR_IN, DEAR_OUT);
        assertTrue(expected.signum() > 0);
        Cost cost = answer.cost();
        assertAmount(expected, cost.amount());
        assertEquals("custom", cost.priceSource());
        assertEquals("USD", cost.currency());

        JsonObject shown = answer.toJson().getJsonObject("usage");
        assertAmount(expected, shown.getJsonNumber("cost").bigDecimalValue());
        assertEquals("custom", shown.getString("price_source"));
        assertEquals(usage.getInt("total_tokens"), shown.getInt("total_tokens"), "the provider's members stay");

        RequestRecord record = engine.findRecord(answer.requestId()).orElseThrow();
        assertEquals(cost, record.cost());
    }

    @Test
    void aStreamThatAskedForUsageGetsTheCostInItsUsageChunkAndTheOthersAreUntouched() {
        FailoverEngine engine = start();
        ChatRequest request = ChatRequest.builder().model("dear-model").message("user", "Say hello to the team.")
                .stream(true).param("stream_options", Json.createObjectBuilder().add("include_usage", true).build())
                .build();

        EngineFixture.Outcome outcome = EngineFixture.Mode.STREAM.call(engine, request);

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        List<ChatChunk> withUsage = outcome.chunks().stream()
                .filter(c -> c.body().get("usage") instanceof JsonObject).toList();
        assertEquals(1, withUsage.size(), "one usage chunk");
        ChatChunk last = outcome.chunks().get(outcome.chunks().size() - 1);
        assertEquals(withUsage.get(0), last, "it is the last");
        assertInstanceOf(RawJsonObject.class, last.body(), "spliced into the provider's text, not rebuilt");
        JsonObject usage = last.body().getJsonObject("usage");
        BigDecimal expected = expected(usage, DEAR_IN, DEAR_OUT);
        assertAmount(expected, usage.getJsonNumber("cost").bigDecimalValue());
        assertEquals("custom", usage.getString("price_source"));
        assertEquals("USD", usage.getString("cost_currency"));
        for (ChatChunk c : outcome.chunks().subList(0, outcome.chunks().size() - 1)) {
            assertFalse(c.body().toString().contains("\"cost\""), c.body()::toString);
        }
        RequestRecord record = engine.findRecord(outcome.requestId()).orElseThrow();
        assertAmount(expected, record.cost().amount());
    }

    @Test
    void aStreamWithoutUsageHasNoCostAnywhere() {
        FailoverEngine engine = start();

        EngineFixture.Outcome outcome = EngineFixture.Mode.STREAM.call(engine,
                ChatRequest.builder().model("dear-model").message("user", "Hello.").stream(true).build());

        assertTrue(outcome.ok());
        outcome.chunks().forEach(c -> assertFalse(c.body().toString().contains("\"cost\""), c.body()::toString));
        assertNull(engine.findRecord(outcome.requestId()).orElseThrow().cost(), "no usage, no estimate");
    }

    @Test
    void aFallbackIsBilledAtTheServedModelsRateNotTheRequestedOnes() {
        FailoverEngine engine = start();
        sim.account("primary").setDefault(Behavior.overloaded());

        for (EngineFixture.Mode mode : EngineFixture.Mode.values()) {
            ChatRequest request = ChatRequest.builder().model("chat").message("user", "Say hello to the team.")
                    .stream(mode == EngineFixture.Mode.STREAM)
                    .param("stream_options", Json.createObjectBuilder().add("include_usage", true).build()).build();
            EngineFixture.Outcome outcome = mode.call(engine, request);

            assertTrue(outcome.ok(), () -> mode + " failed: " + outcome.error());
            assertEquals("cheap-model", outcome.servedBy().model());
            RequestRecord record = engine.findRecord(outcome.requestId()).orElseThrow();
            assertAmount(expected(record.usage(), CHEAP_IN, CHEAP_OUT), record.cost().amount());
            assertTrue(record.cost().amount().compareTo(expected(record.usage(), DEAR_IN, DEAR_OUT)) < 0);
        }
    }

    @Test
    void anAnthropicAnswerTranslatedToOpenAiIsPricedInBothModes() {
        Map<String, String> props = connections(sim.simulator(), "anthropic", "claude-haiku-4-5", List.of("claude"));
        FailoverEngine engine = EngineFixture.engine(props, new VirtualTime());
        var listed = PriceList.builtIn().price("claude-haiku-4-5").orElseThrow();

        ChatResponse whole = engine.complete(Call.of(ChatRequest.of("claude-haiku-4-5", "Say hello to the team."))).join();
        assertAmount(expected(whole.usage().orElseThrow(), listed.input(), listed.output()), whole.cost().amount());

        EngineFixture.Outcome streamed = EngineFixture.Mode.STREAM.call(engine, ChatRequest.builder()
                .model("claude-haiku-4-5").message("user", "Say hello to the team.").stream(true)
                .param("stream_options", Json.createObjectBuilder().add("include_usage", true).build()).build());
        assertTrue(streamed.ok(), () -> "failed: " + streamed.error());
        JsonObject usage = streamed.chunks().get(streamed.chunks().size() - 1).body().getJsonObject("usage");
        assertAmount(expected(usage, listed.input(), listed.output()), usage.getJsonNumber("cost").bigDecimalValue());
        assertEquals("list", usage.getString("price_source"));
    }

    @Test
    void anUnpricedModelHasCostNullAndNoPriceSource() {
        FailoverEngine engine = start();
        ChatResponse answer = engine.complete(Call.of(ChatRequest.of("free-model", "Hello."))).join();

        assertNull(answer.cost());
        JsonObject usage = answer.toJson().getJsonObject("usage");
        assertEquals(JsonValue.NULL, usage.get("cost"));
        assertFalse(usage.containsKey("price_source"));
        assertNull(engine.findRecord(answer.requestId()).orElseThrow().cost());
    }

    @Test
    void aListedModelIsPricedFromTheBuiltInList() {
        FailoverEngine engine = start();
        ChatResponse answer = engine.complete(Call.of(ChatRequest.of("gpt-4o-mini", "Hello there."))).join();

        var listed = PriceList.builtIn().price("gpt-4o-mini").orElseThrow();
        assertEquals("list", answer.cost().priceSource());
        assertAmount(expected(answer.usage().orElseThrow(), listed.input(), listed.output()), answer.cost().amount());
        assertInstanceOf(JsonNumber.class, answer.toJson().getJsonObject("usage").get("cost"));
        assertNotNull(PriceList.builtIn().asOf());
    }
}
