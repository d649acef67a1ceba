package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.exception.FailoverException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests naming {@code vendor/model} over real HTTP: every connection serving the vendor is a candidate, each sent
 * its own id for the model; the answer and the record name the vendor id and who served.
 */
class VendorModelIdsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private FailoverEngine engine;

    /**
     * Anthropic accounts {@code claude-a} and {@code claude-b} (no models listed: they serve Anthropic's models by
     * vendor) and an OpenAI-compatible account {@code gpt} serving vendor openai.
     */
    private Map<String, String> props() {
        Map<String, String> props = new HashMap<>();
        for (String account : List.of("claude-a", "claude-b")) {
            props.put("baton.connections." + account + ".provider", "anthropic");
            props.put("baton.connections." + account + ".base-url", sim.simulator().baseUrl(account));
            props.put("baton.connections." + account + ".api-key", "sk-ant-" + account + "-0123456789");
        }
        props.put("baton.connections.gpt.provider", "openai");
        props.put("baton.connections.gpt.base-url", sim.simulator().baseUrl("gpt"));
        props.put("baton.connections.gpt.api-key", "sk-gpt-0123456789");
        props.put("baton.connections.gpt.models", "gpt-4o");
        props.put("baton.connections.gpt.vendors", "openai");
        props.put("baton.defaults.same-target-retries", "0");
        return props;
    }

    private FailoverEngine start(Map<String, String> props) {
        engine = EngineFixture.engine(props, new VirtualTime());
        return engine;
    }

    /** The refusal of {@code request}, which must be Baton's own. */
    private FailoverException rejected(ChatRequest request) {
        Outcome outcome = Mode.COMPLETE.call(engine, request);
        return assertInstanceOf(RequestRejectedException.class, outcome.error(), () -> "not refused: " + outcome);
    }

    private RequestRecord record(Outcome outcome) {
        assertNotNull(outcome.requestId());
        return engine.findRecord(outcome.requestId()).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aVendorIdGoesToTheVendorsConnectionsInOrderEachWithItsOwnId(Mode mode) {
        start(props());
        sim.account("claude-a").setDefault(Behavior.overloaded());

        Outcome outcome = mode.call(engine, ChatRequest.of("anthropic/claude-sonnet-4-5", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from claude-b.", outcome.text());
        assertEquals("anthropic/claude-sonnet-4-5", outcome.servedBy().model(), "the answer names the model as asked");
        assertEquals("anthropic", outcome.servedBy().provider());
        assertEquals("claude-b", outcome.servedBy().connection());
        assertEquals("claude-sonnet-4-5", sim.account("claude-a").lastRequest().json().getString("model"));
        assertEquals("claude-sonnet-4-5", sim.account("claude-b").lastRequest().json().getString("model"));
        List<AttemptRecord> attempts = record(outcome).attempts();
        assertEquals(List.of("claude-a/anthropic/claude-sonnet-4-5", "claude-b/anthropic/claude-sonnet-4-5"),
                attempts.stream().map(AttemptRecord::target).toList());
        assertEquals("anthropic/claude-sonnet-4-5", attempts.get(0).model());
        assertEquals("anthropic", attempts.get(0).provider());
        assertEquals(0, sim.account("gpt").requestCount(), "an OpenAI connection does not serve Anthropic's models");
    }

    @Test
    void priorityComesBeforeConfiguredOrderAndModelIdsOverrideTheProvidersId() {
        Map<String, String> props = props();
        props.put("baton.connections.claude-b.priority", "-1");
        props.put("baton.connections.claude-b.model-ids.anthropic/claude-sonnet-4-5", "claude-sonnet-4-5-20250929");

        Outcome outcome = Mode.COMPLETE.call(start(props), ChatRequest.of("anthropic/claude-sonnet-4-5", "Hi."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("claude-b", outcome.servedBy().connection());
        assertEquals("claude-sonnet-4-5-20250929", sim.account("claude-b").lastRequest().json().getString("model"));
        assertEquals(0, sim.account("claude-a").requestCount());
    }

    @Test
    void aVendorIdIsPricedByItsVendorsListPrice() {
        Outcome outcome = Mode.COMPLETE.call(start(props()), ChatRequest.of("anthropic/claude-haiku-4-5", "Hi."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        RequestRecord record = record(outcome);
        assertNotNull(record.cost(), "claude-haiku-4-5 is in the built-in price list");
    }

    @Test
    void aVendorNoConnectionServesIs503NoProviderConnected() {
        start(props());

        FailoverException e = rejected(ChatRequest.of("moonshot/kimi-k2.6", "Hi."));

        assertEquals(503, e.httpStatus());
        assertEquals("no_provider_connected", e.code());
        assertTrue(e.getMessage().contains("moonshot"), e.getMessage());
        assertEquals(0, sim.account("claude-a").requestCount() + sim.account("gpt").requestCount());
    }

    @Test
    void anUnknownModelOfAServedVendorIs404NamingTheKeyThatWouldServeIt() {
        start(props());

        FailoverException e = rejected(ChatRequest.of("anthropic/claude-nonesuch-9", "Hi."));

        assertEquals(404, e.httpStatus());
        assertEquals("model_not_found", e.code());
        assertTrue(e.getMessage().contains("model-ids.anthropic/claude-nonesuch-9"), e.getMessage());
    }

    @Test
    void aConfiguredModelIdMakesANewModelKnownToItsConnectionOnly() {
        Map<String, String> props = props();
        props.put("baton.connections.claude-a.model-ids.anthropic/claude-nonesuch-9", "claude-nonesuch-9-20261201");

        Outcome outcome = Mode.COMPLETE.call(start(props), ChatRequest.of("anthropic/claude-nonesuch-9", "Hi."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("claude-nonesuch-9-20261201", sim.account("claude-a").lastRequest().json().getString("model"));
        // claude-b has the same provider, whose own id for an Anthropic model is the model itself
        assertEquals(2, engine.config().servingModel("anthropic/claude-nonesuch-9").size());
    }

    @Test
    void fallbacksNameVendorIdsAndAnUnservedOneIsRefusedUpFront() {
        start(props());
        sim.account("claude-a").setDefault(Behavior.overloaded());
        sim.account("claude-b").setDefault(Behavior.overloaded());

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.builder().model("anthropic/claude-sonnet-4-5")
                .message("user", "Hi.").fallbacks("openai/gpt-4o").build());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("openai/gpt-4o", outcome.servedBy().model());
        assertEquals("gpt-4o", sim.account("gpt").lastRequest().json().getString("model"));

        FailoverException e = rejected(
                ChatRequest.builder().model("anthropic/claude-sonnet-4-5").message("user", "Hi.")
                        .fallbacks("moonshot/kimi-k2.6").build());
        assertEquals("unknown_fallback_model", e.code());
    }

    @Test
    void bareNamesAndRoutesWorkAsBeforeAndARouteTargetMayNameAVendorId() {
        Map<String, String> props = props();
        props.put("baton.routes.chat.targets", "claude-a/anthropic/claude-haiku-4-5, gpt/gpt-4o");
        start(props);
        sim.account("claude-a").setDefault(Behavior.serverError());

        Outcome routed = Mode.STREAM.call(engine, ChatRequest.of("chat", "Hi."));
        Outcome bare = Mode.COMPLETE.call(engine, ChatRequest.of("gpt-4o", "Hi."));

        assertTrue(routed.ok(), () -> "failed: " + routed.error());
        assertEquals("gpt", routed.servedBy().connection());
        assertEquals("claude-haiku-4-5", sim.account("claude-a").lastRequest().json().getString("model"));
        assertEquals("claude-a/anthropic/claude-haiku-4-5", record(routed).attempts().get(0).target());
        assertTrue(bare.ok(), () -> "failed: " + bare.error());
        assertEquals("gpt-4o", bare.servedBy().model());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aGeminiApiKeyConnectionServesGooglesModelsByVendorId(Mode mode) {
        Map<String, String> props = props();
        props.put("baton.connections.gem.provider", "gemini");
        props.put("baton.connections.gem.base-url", sim.simulator().geminiBaseUrl("gem"));
        props.put("baton.connections.gem.api-key", "AIza-gem-0123456789");
        start(props);

        Outcome outcome = mode.call(engine, ChatRequest.of("google/gemini-2.5-flash", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from gem.", outcome.text());
        assertEquals("gemini", outcome.servedBy().provider());
        assertEquals("google/gemini-2.5-flash", outcome.servedBy().model());
        assertEquals("gemini-2.5-flash", sim.account("gem").lastRequest().json().getString("model"));
        assertEquals("Bearer AIza-gem-0123456789", sim.account("gem").lastRequest().header("authorization").orElseThrow());
        assertTrue(sim.account("gem").lastRequest().path().endsWith("/v1beta/openai/chat/completions"),
                sim.account("gem").lastRequest().path());
    }

    @Test
    void aCompatibleHostServesNoVendorUnlessItSaysWhich() {
        Map<String, String> props = props();
        props.remove("baton.connections.gpt.vendors");
        start(props);

        FailoverException e = rejected(ChatRequest.of("openai/gpt-4o", "Hi."));

        assertEquals("no_provider_connected", e.code());
    }

    @Test
    void aBadVendorNameOrModelIdIsRefusedNamingTheKey() {
        Map<String, String> props = props();
        props.put("baton.connections.gpt.vendors", "openai, Not A Vendor");
        props.put("baton.connections.claude-a.model-ids.anthropic/claude-x", "an id with spaces");

        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, () -> EngineFixture.config(props));

        assertTrue(e.getMessage().contains("baton.connections.gpt.vendors: 'Not A Vendor' is not a vendor name"),
                e.getMessage());
        assertTrue(e.getMessage().contains("baton.connections.claude-a.model-ids.anthropic/claude-x:"), e.getMessage());
    }
}
