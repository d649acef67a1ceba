package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Targets whose model cannot serve the request as configured ({@code baton.models.*}) are skipped at plan time
 * with the reason, never attempted; over real loopback HTTP against the simulator.
 */
class ModelEligibilityTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private FailoverEngine engine;


    /** Account a serves m1, b serves m2, c serves m3. */
    private static Map<String, String> threeModels() {
        Map<String, String> props = connections(sim.simulator(), "m1", "a");
        props.putAll(connections(sim.simulator(), "m2", "b"));
        props.putAll(connections(sim.simulator(), "m3", "c"));
        return props;
    }

    private void start(Map<String, String> props) {
        engine = EngineFixture.engine(props, new VirtualTime());
    }

    private RequestRecord record(Outcome outcome) {
        assertNotNull(outcome.requestId(), "every outcome names its request id");
        return engine.findRecord(outcome.requestId()).orElseThrow();
    }

    private static ChatRequest.Builder withTools(ChatRequest.Builder builder) {
        JsonObject tool = Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", "get_weather").add("parameters", Json.createObjectBuilder().add("type", "object"))).build();
        return builder.param("tools", Json.createArrayBuilder().add(tool).build());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFallbackThatCannotCallToolsIsSkippedForARequestWithTools(Mode mode) {
        Map<String, String> props = threeModels();
        props.put("baton.models.m2.tools", "false");
        start(props);
        sim.account("a").setDefault(Behavior.modelNotFound());

        Outcome outcome = mode.call(engine, withTools(ChatRequest.builder().model("m1").message("user", "Weather in Oslo?")
                .fallbacks("m2", "m3")).build());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("m3", outcome.servedBy().model());
        assertEquals("standby_b", outcome.servedBy().position(), "positions follow the configured chain");
        assertEquals(0, sim.account("b").requestCount(), "a skipped target is never attempted");
        RequestRecord record = record(outcome);
        assertEquals(List.of(new SkippedTarget("b/m2", "standby_a", "m2 cannot call tools (baton.models.m2.tools=false)")),
                record.skipped());
        assertEquals(List.of("a/m1", "c/m3"), record.attempts().stream().map(a -> a.target()).toList());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theSameFallbackServesARequestWithoutTools(Mode mode) {
        Map<String, String> props = threeModels();
        props.put("baton.models.m2.tools", "false");
        start(props);
        sim.account("a").setDefault(Behavior.modelNotFound());

        Outcome outcome = mode.call(engine, ChatRequest.builder().model("m1").message("user", "hi")
                .fallbacks("m2", "m3").build());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("m2", outcome.servedBy().model());
        assertEquals(1, sim.account("b").requestCount());
        assertEquals(0, sim.account("c").requestCount());
        assertEquals(List.of(), record(outcome).skipped());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anImageRequestSkipsATextOnlyModel(Mode mode) {
        Map<String, String> props = threeModels();
        props.put("baton.models.m1.modalities", "text");
        start(props);
        JsonObject message = Json.createObjectBuilder().add("role", "user").add("content", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "text").add("text", "What is in this picture?"))
                .add(Json.createObjectBuilder().add("type", "image_url").add("image_url",
                        Json.createObjectBuilder().add("url", "https://example.com/cat.png")))).build();

        Outcome outcome = mode.call(engine, ChatRequest.builder().model("m1").message(message).fallbacks("m2").build());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("m2", outcome.servedBy().model());
        assertEquals("standby_a", outcome.servedBy().position());
        assertEquals(0, sim.account("a").requestCount(), "even the requested model is skipped when it cannot serve");
        assertEquals(List.of(new SkippedTarget("a/m1", "primary",
                "m1 cannot read image input (baton.models.m1.modalities=text)")), record(outcome).skipped());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aLongPromptSkipsASmallContextRouteTarget(Mode mode) {
        Map<String, String> props = threeModels();
        props.put("baton.models.m1.context-window", "100");
        props.put("baton.routes.chat.targets", "a/m1, b/m2");
        start(props);

        Outcome shortPrompt = mode.call(engine, ChatRequest.of("chat", "x".repeat(400))); // 100 tokens: fits
        assertEquals("a", shortPrompt.servedBy().connection());

        Outcome longPrompt = mode.call(engine, ChatRequest.of("chat", "x".repeat(401))); // 101 tokens
        assertTrue(longPrompt.ok(), () -> "failed: " + longPrompt.error());
        assertEquals("b", longPrompt.servedBy().connection());
        assertEquals("chat", longPrompt.servedBy().routeName());
        assertEquals(1, sim.account("a").requestCount(), "only the prompt that fits reached a");
        assertEquals(List.of(new SkippedTarget("a/m1", "primary", "m1 has too small a context window for an estimated"
                + " 101 prompt tokens (baton.models.m1.context-window=100)")), record(longPrompt).skipped());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void whenNoTargetCanServeTheAnswerIs503NamingEachSkip(Mode mode) {
        Map<String, String> props = threeModels();
        props.put("baton.models.m1.tools", "false");
        props.put("baton.models.m2.modalities", "text");
        start(props);
        JsonObject message = Json.createObjectBuilder().add("role", "user").add("content", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "image_url").add("image_url",
                        Json.createObjectBuilder().add("url", "https://example.com/cat.png")))).build();

        Outcome outcome = mode.call(engine, withTools(ChatRequest.builder().model("m1").message(message)
                .fallbacks("m2")).build());

        UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, outcome.error());
        assertEquals(503, error.httpStatus());
        assertEquals("no_available_provider", error.code());
        assertFalse(error.retryable(), "no later retry changes what a model can do");
        assertTrue(error.retryAfter().isEmpty());
        assertTrue(error.getMessage().contains("a/m1 (primary): m1 cannot call tools (baton.models.m1.tools=false)")
                && error.getMessage().contains("b/m2 (standby_a): m2 cannot read image input (baton.models.m2.modalities=text)"),
                error.getMessage());
        assertEquals(0, sim.account("a").requestCount() + sim.account("b").requestCount() + sim.account("c").requestCount());
        RequestRecord record = record(outcome);
        assertEquals(2, record.skipped().size());
        assertTrue(record.attempts().isEmpty());
    }

    @Test
    void anUnknownFallbackIsStillRefusedUpFrontWhateverTheProfiles() {
        Map<String, String> props = threeModels();
        props.put("baton.models.m2.tools", "false");
        start(props);

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.builder().model("m1").message("user", "hi")
                .fallbacks("m2", "nope").build());

        assertEquals("unknown_fallback_model",
                assertInstanceOf(dev.baton.exception.RequestRejectedException.class, outcome.error()).code());
        assertEquals(0, sim.account("a").requestCount());
    }
}
