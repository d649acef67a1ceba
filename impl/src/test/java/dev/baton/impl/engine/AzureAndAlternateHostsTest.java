package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.testkit.RecordedRequest;
import jakarta.json.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Azure OpenAI, alternate hosts and OpenAI-compatible quirks, over loopback HTTP against the simulator. */
class AzureAndAlternateHostsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static int closedPort;
    private FailoverEngine engine;

    @BeforeAll
    static void refusingPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
    }


    /** Azure connection "az" (deployment "chat-prod" for gpt-4o) first, OpenAI connection "oa" second, route "chat". */
    private FailoverEngine startAzure() {
        Map<String, String> props = new HashMap<>();
        props.put("baton.connections.az.provider", "azure-openai");
        props.put("baton.connections.az.base-url", sim.simulator().azureBaseUrl("az"));
        props.put("baton.connections.az.api-key", EngineFixture.KEY_PREFIX + "az-0123456789");
        props.put("baton.connections.az.api-version", "2024-10-21");
        props.put("baton.connections.az.models", "gpt-4o");
        props.put("baton.connections.az.deployments.gpt-4o", "chat-prod");
        props.putAll(EngineFixture.connections(sim.simulator(), "gpt-4o", "oa"));
        props.put("baton.routes.chat.targets", "az/gpt-4o, oa/gpt-4o");
        props.put("baton.routes.chat.retry-backoff", "10ms");
        engine = EngineFixture.engine(props, new VirtualTime());
        return engine;
    }

    private RequestRecord record(Outcome outcome) {
        assertNotNull(outcome.requestId());
        return engine.findRecord(outcome.requestId()).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void azureIsCalledOnTheDeploymentPathWithApiVersionAndApiKey(Mode mode) {
        startAzure();

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from az.", outcome.text());
        assertEquals("azure-openai", outcome.servedBy().provider());
        assertEquals("az", outcome.servedBy().connection());
        RecordedRequest sent = sim.account("az").lastRequest();
        assertEquals("/az/openai/deployments/chat-prod/chat/completions", sent.path());
        assertEquals("2024-10-21", sent.queryParameter("api-version").orElseThrow());
        assertEquals(EngineFixture.KEY_PREFIX + "az-0123456789", sent.header("api-key").orElseThrow());
        assertTrue(sent.header("authorization").isEmpty(), "Azure's key goes in api-key, not a Bearer token");
        assertTrue(sim.account("oa").requests().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void azuresContentFilter400IsModerationAndStops(Mode mode) {
        startAzure();
        sim.account("az").setDefault(Behavior.azureContentFilter());

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Something filtered."));

        assertFalse(outcome.ok());
        assertEquals(403, outcome.error().httpStatus(), "moderation answers 403");
        RequestRecord record = record(outcome);
        assertEquals(1, record.attempts().size(), "a moderation refusal never fails over");
        assertEquals(FailureKind.MODERATION, record.attempts().get(0).kind());
        assertTrue(sim.account("oa").requests().isEmpty());
        assertEquals("healthy", engine.health().of("az").snapshot().state());
    }

    @Test
    void aCompletionFilteredByAzurePassesThroughAsAnAnswer() {
        startAzure();
        sim.account("az").setDefault(Behavior.status(200, """
                {"id":"chatcmpl-az1","object":"chat.completion","created":1726012687,"model":"gpt-4o-2024-08-06",
                 "prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}],
                 "choices":[{"index":0,"message":{"role":"assistant","content":"Partial"},"finish_reason":"content_filter",
                   "content_filter_results":{"violence":{"filtered":true,"severity":"medium"}}}],
                 "usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}"""));

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.of("chat", "Tell me."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Partial", outcome.text());
        assertEquals("az", outcome.servedBy().connection());
        assertEquals(1, record(outcome).attempts().size());
    }

    @Test
    void aStreamFilteredByAzurePassesThroughWithItsFinishReason() {
        startAzure();
        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":";
        sim.account("az").setDefault(Behavior.status(200,
                "data: " + chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Part\"}}]}\n\n"
                        + "data: " + chunk + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"content_filter\"}]}\n\n"
                        + "data: [DONE]\n\n"));

        Outcome outcome = Mode.STREAM.call(engine, ChatRequest.builder().model("chat").message("user", "Tell me.")
                .stream(true).build());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Part", outcome.text());
        assertTrue(outcome.chunks().stream().map(ChatChunk::finishReason).anyMatch("content_filter"::equals));
    }

    /** Connection "alt": a refusing first host, then the simulator; route "chat" has only that target. */
    private FailoverEngine startWithUnreachableFirstHost() {
        Map<String, String> props = new HashMap<>(EngineFixture.connections(sim.simulator(), "gpt-4o", "alt"));
        String live = sim.simulator().baseUrl("alt");
        props.put("baton.connections.alt.base-url", "http://127.0.0.1:" + closedPort + "/alt/v1");
        props.put("baton.connections.alt.alternate-base-urls", live);
        props.put("baton.routes.chat.targets", "alt/gpt-4o");
        props.put("baton.routes.chat.same-target-retries", "0");
        engine = EngineFixture.engine(props, new VirtualTime());
        return engine;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anUnreachableHostIsReplacedByItsAlternateInsideOneAttempt(Mode mode) {
        startWithUnreachableFirstHost();

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from alt.", outcome.text());
        RequestRecord record = record(outcome);
        assertEquals(1, record.attempts().size(), "the alternate host is the same attempt");
        assertTrue(record.attempts().get(0).succeeded());
        assertEquals(1, sim.account("alt").requests().size());
        var health = engine.health().of("alt").snapshot();
        assertEquals("healthy", health.state());
        assertEquals(0, health.consecutiveFailures(), "an unreachable first host is not counted");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anAlternateIsNeverTriedAfterAResponseStatus(Mode mode) {
        Map<String, String> props = new HashMap<>(EngineFixture.connections(sim.simulator(), "gpt-4o", "first"));
        props.put("baton.connections.first.alternate-base-urls", sim.simulator().baseUrl("second"));
        props.put("baton.routes.chat.targets", "first/gpt-4o");
        props.put("baton.routes.chat.same-target-retries", "0");
        engine = EngineFixture.engine(props, new VirtualTime());
        sim.account("first").setDefault(Behavior.serverError());

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertFalse(outcome.ok());
        assertTrue(sim.account("second").requests().isEmpty(), "a host that answered is not replaced");
    }

    // ---------------------------------------------------------------- OpenAI-compatible hosts

    private FailoverEngine startCompatible(Map<String, String> extra) {
        Map<String, String> props = new HashMap<>(EngineFixture.connections(sim.simulator(), "llama-3", "vllm"));
        props.put("baton.routes.chat.targets", "vllm/llama-3");
        props.putAll(extra);
        engine = EngineFixture.engine(props, new VirtualTime());
        return engine;
    }

    private static ChatRequest streamWithUsage() {
        return ChatRequest.builder().model("chat").message("user", "Say hello.").stream(true)
                .param("stream_options", Json.createObjectBuilder().add("include_usage", true).build()).build();
    }

    @Test
    void aUsageChunkWithNullChoicesIsAccepted() {
        startCompatible(Map.of());
        sim.account("vllm").setDefault(Behavior.ok().usageChoicesNull());

        Outcome outcome = Mode.STREAM.call(engine, streamWithUsage());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from vllm.", outcome.text());
        assertTrue(outcome.chunks().stream().anyMatch(c -> c.body().get("usage") instanceof jakarta.json.JsonObject),
                "the usage chunk reaches the caller");
    }

    @Test
    void aStreamWithoutDoneAfterItsFinishReasonIsComplete() {
        startCompatible(Map.of());
        sim.account("vllm").setDefault(Behavior.ok().withoutDone());

        Outcome outcome = Mode.STREAM.call(engine, streamWithUsage());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from vllm.", outcome.text());
        assertEquals(1, record(outcome).attempts().size());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void configuredHeadersAreSent(Mode mode) {
        startCompatible(Map.of("baton.connections.vllm.headers.X-Foo", "bar"));

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("bar", sim.account("vllm").lastRequest().header("x-foo").orElseThrow());
        assertEquals(List.of("Bearer " + EngineFixture.KEY_PREFIX + "vllm-0123456789"),
                sim.account("vllm").lastRequest().headers().get("authorization"));
    }
}
