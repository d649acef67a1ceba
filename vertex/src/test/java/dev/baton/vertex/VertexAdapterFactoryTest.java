package dev.baton.vertex;

import dev.baton.spi.ConnectionKey;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VertexAdapterFactoryTest {

    private final VertexAdapterFactory factory = new VertexAdapterFactory();

    @Test
    void theBaseUrlIsTheRegionsOrTheGlobalEndpoint() {
        assertEquals(Optional.of(URI.create("https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/"
                + "locations/us-east5")), factory.defaultBaseUrl(Map.of("project", "my-project", "region", "us-east5")));
        assertEquals(Optional.of(URI.create("https://aiplatform.googleapis.com/v1/projects/my-project/locations/"
                + "global")), factory.defaultBaseUrl(Map.of("project", "my-project", "region", "global")));
        assertEquals(Optional.empty(), factory.defaultBaseUrl(Map.of("project", "my-project")));
        assertEquals(Optional.empty(), factory.defaultBaseUrl(Map.of("project", "my project", "region", "us-east5")));
        assertEquals(Optional.empty(), factory.defaultBaseUrl(Map.of("project", "my-project", "region", "evil.com/x")));
    }

    @Test
    void projectAndRegionAreRequiredAndCheckedAndNoApiKeyIsNeeded() {
        ConnectionKey project = key("project");
        ConnectionKey region = key("region");
        assertTrue(project.required() && region.required());
        assertFalse(key("credentials-file").required());
        assertTrue(project.format().matcher("my-project-123").matches());
        assertTrue(project.format().matcher("example.com:my-project").matches());
        assertFalse(project.format().matcher("My_Project").matches());
        assertTrue(region.format().matcher("europe-west1").matches());
        assertTrue(region.format().matcher("global").matches());
        assertFalse(region.format().matcher("us-east5.evil.com").matches());
        assertFalse(factory.requiresApiKey());
    }

    @Test
    void claudeIdsComeFromTheTableAndGeminiIdsAreGooglesOwn() {
        assertEquals(Optional.of("claude-sonnet-4-5@20250929"), factory.modelId("anthropic", "claude-sonnet-4-5", Map.of()));
        assertEquals(Optional.of("claude-sonnet-4-5@20250929"),
                factory.modelId("anthropic", "claude-sonnet-4-5-20250929", Map.of()));
        assertEquals(Optional.of("claude-haiku-4-5@20251001"), factory.modelId("anthropic", "claude-haiku-4-5", Map.of()));
        assertEquals(Optional.of("claude-opus-4@20250514"), factory.modelId("anthropic", "claude-opus-4-0", Map.of()));
        assertEquals(Optional.of("claude-3-5-haiku@20241022"),
                factory.modelId("anthropic", "claude-3-5-haiku-latest", Map.of()));
        assertEquals(Optional.of("claude-opus-4-1@20250805"),
                factory.modelId("anthropic", "claude-opus-4-1@20250805", Map.of()));
        assertEquals(Optional.empty(), factory.modelId("anthropic", "claude-2.1", Map.of()));
        assertEquals(Optional.of("gemini-2.5-flash"), factory.modelId("google", "gemini-2.5-flash", Map.of()));
        assertEquals(Optional.empty(), factory.modelId("google", "text-bison", Map.of()));
        assertEquals(Optional.empty(), factory.modelId("openai", "gpt-4o", Map.of()));
        assertEquals(java.util.Set.of("anthropic", "google"), factory.vendors(URI.create("https://us-east5-aiplatform.googleapis.com/v1")));
        assertTrue(factory.knownModels().contains("anthropic/claude-sonnet-4-5"));
        assertTrue(factory.knownModels().stream().allMatch(m -> factory.modelId("anthropic",
                m.substring("anthropic/".length()), Map.of()).isPresent()));
    }

    private ConnectionKey key(String name) {
        return factory.connectionKeys().stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow();
    }
}
