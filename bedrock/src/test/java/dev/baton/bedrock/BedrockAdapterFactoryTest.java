package dev.baton.bedrock;

import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapterFactory;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What provider bedrock declares: its keys, its default host, its vendors and model ids. */
class BedrockAdapterFactoryTest {

    private final BedrockAdapterFactory factory = new BedrockAdapterFactory();

    @Test
    void isFoundByServiceLoader() {
        assertTrue(ServiceLoader.load(ProviderAdapterFactory.class).stream()
                .anyMatch(p -> p.type() == BedrockAdapterFactory.class));
        assertEquals("bedrock", factory.id());
        assertFalse(factory.requiresApiKey());
    }

    @Test
    void declaresItsKeysWithSecretsHidden() {
        Map<String, ConnectionKey> keys = factory.connectionKeys().stream()
                .collect(Collectors.toMap(ConnectionKey::name, k -> k));

        assertEquals(Set.of("region", "access-key-id", "secret-access-key", "session-token", "profile",
                "inference-profile"), keys.keySet());
        assertTrue(keys.get("region").required());
        assertTrue(keys.get("region").format().matcher("us-gov-west-1").matches());
        assertTrue(keys.get("region").format().matcher("ap-southeast-2").matches());
        assertFalse(keys.get("region").format().matcher("US East").matches());
        assertTrue(keys.get("secret-access-key").secret());
        assertTrue(keys.get("session-token").secret());
        assertTrue(keys.get("inference-profile").format().matcher("apac").matches());
        assertFalse(keys.get("inference-profile").format().matcher("us.").matches());
    }

    @Test
    void theDefaultHostIsTheRegionsRuntimeEndpoint() {
        assertEquals(Optional.of(URI.create("https://bedrock-runtime.eu-central-1.amazonaws.com")),
                factory.defaultBaseUrl(Map.of("region", "eu-central-1")));
        assertEquals(Optional.empty(), factory.defaultBaseUrl(Map.of()));
    }

    @Test
    void servesTheVendorsOfItsTable() {
        assertEquals(Set.of("anthropic", "amazon", "meta", "mistral", "cohere", "deepseek", "openai", "ai21", "qwen",
                "writer"), factory.vendors(URI.create("https://bedrock-runtime.us-east-1.amazonaws.com")));
        assertTrue(factory.knownModels().contains("anthropic/claude-sonnet-4-5"), "its table's names are known");
    }

    @Test
    void mapsVendorModelsToBedrockIdsWithTheInferenceProfile() {
        assertEquals(Optional.of("anthropic.claude-sonnet-4-5-20250929-v1:0"),
                factory.modelId("anthropic", "claude-sonnet-4-5", Map.of()));
        assertEquals(Optional.of("us.anthropic.claude-haiku-4-5-20251001-v1:0"),
                factory.modelId("anthropic", "claude-haiku-4-5", Map.of("inference-profile", "us")));
        assertEquals(Optional.of("global.anthropic.claude-opus-4-5-20251101-v1:0"),
                factory.modelId("anthropic", "claude-opus-4-5", Map.of("inference-profile", "global")));
        assertEquals(Optional.of("amazon.nova-pro-v1:0"), factory.modelId("amazon", "nova-pro", Map.of()));
        assertEquals(Optional.of("meta.llama3-3-70b-instruct-v1:0"),
                factory.modelId("meta", "llama-3.3-70b-instruct", Map.of()));
        assertEquals(Optional.of("openai.gpt-oss-120b-1:0"), factory.modelId("openai", "gpt-oss-120b", Map.of()));
        assertEquals(Optional.empty(), factory.modelId("openai", "gpt-4o", Map.of()));
        assertEquals(Optional.empty(), factory.modelId("anthropic", "claude-2", Map.of()));
    }
}
