package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A vertex connection as an application configures it, through Baton's configuration and engine. */
class VertexEngineTest {

    private static final String CLAUDE = "claude-sonnet-4-5@20250929";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @TempDir
    Path dir;

    private Map<String, String> vertex(String name) {
        String p = "baton.connections." + name + ".";
        Map<String, String> props = new HashMap<>();
        props.put(p + "provider", "vertex");
        props.put(p + "project", "my-project-123");
        props.put(p + "region", "us-east5");
        props.put(p + "models", CLAUDE + ",gemini-2.5-flash");
        props.put(p + "credentials-file", sim.google().writeServiceAccountKey(dir.resolve("sa.json")).toString());
        props.put(p + "probe", "request");
        return props;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void claudeNotEnabledOnTheProjectFailsOverToGeminiOnTheSameConnection(Mode mode) {
        Map<String, String> props = vertex("vertex");
        props.put("baton.connections.vertex.base-url", sim.vertexBaseUrl("vertex"));
        props.put("baton.routes.chat.targets", "vertex/" + CLAUDE + ", vertex/gemini-2.5-flash");
        props.put("baton.routes.chat.retry-backoff", "10ms");
        FailoverEngine engine = EngineFixture.engine(props, new VirtualTime());
        sim.account("vertex").enqueue(Behavior.modelNotFound());

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from vertex.", outcome.text());
        assertEquals("gemini-2.5-flash", outcome.servedBy().model());
        assertTrue(sim.account("vertex").requests().get(0).path().endsWith("/models/" + CLAUDE + ":rawPredict")
                || sim.account("vertex").requests().get(0).path().endsWith(":streamRawPredict"));
        assertTrue(sim.account("vertex").lastRequest().path().endsWith("/endpoints/openapi/chat/completions"));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void vendorIdsReachVertexUnderItsOwnIds(Mode mode) {
        Map<String, String> props = vertex("vertex");
        props.remove("baton.connections.vertex.models"); // serves its vendors' models by their vendor ids
        props.put("baton.connections.vertex.base-url", sim.vertexBaseUrl("vertex"));
        FailoverEngine engine = EngineFixture.engine(props, new VirtualTime());

        Outcome claude = mode.call(engine, ChatRequest.of("anthropic/claude-sonnet-4-5", "Say hello."));
        String claudePath = sim.account("vertex").lastRequest().path();
        Outcome gemini = mode.call(engine, ChatRequest.of("google/gemini-2.5-flash", "Say hello."));

        assertTrue(claude.ok(), () -> "failed: " + claude.error());
        assertTrue(claudePath.contains("/publishers/anthropic/models/" + CLAUDE + ":"), claudePath);
        assertTrue(gemini.ok(), () -> "failed: " + gemini.error());
        assertEquals("google/gemini-2.5-flash", sim.account("vertex").lastRequest().json().getString("model"));
    }

    @Test
    void theRegionMakesTheBaseUrlAndNoApiKeyIsAsked() {
        BatonConfig config = EngineFixture.config(vertex("vertex"));

        ConnectionConfig connection = config.connections().stream().filter(c -> c.name().equals("vertex"))
                .findFirst().orElseThrow();
        assertEquals(URI.create("https://us-east5-aiplatform.googleapis.com/v1/projects/my-project-123/locations/"
                + "us-east5"), connection.baseUrl());
        assertEquals("", connection.apiKey());
        assertEquals("my-project-123", connection.settings().get("project"));
    }

    @Test
    void aMissingProjectOrAMalformedRegionIsRefusedNamingTheKey() {
        Map<String, String> props = vertex("vertex");
        props.remove("baton.connections.vertex.project");
        props.put("baton.connections.vertex.region", "us-east5.example.com");

        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class,
                () -> EngineFixture.config(props));

        assertTrue(e.getMessage().contains("baton.connections.vertex.project"), e.getMessage());
        assertTrue(e.getMessage().contains("baton.connections.vertex.region"), e.getMessage());
    }
}
