package dev.baton.impl.config;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.openai.OpenAiAdapterFactory;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelProfilesTest {

    /** Two connections listing models whose names contain dots. */
    private static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put("baton.connections.openai-prod.provider", "openai");
        m.put("baton.connections.openai-prod.api-key", "sk-test-PRIMARY-9d8c7b6a5f4e");
        m.put("baton.connections.openai-prod.models", "gpt-5.4-mini, gpt-5.4");
        m.put("baton.connections.local.provider", "openai");
        m.put("baton.connections.local.base-url", "http://localhost:8080/v1");
        m.put("baton.connections.local.models", "llama-3");
        return m;
    }

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }

    private record Loaded(Map<String, ModelProfile> profiles, List<String> problems) {
    }

    private static Loaded load(Map<String, String> properties) {
        Config config = config(properties);
        Set<String> keys = new TreeSet<>();
        config.getPropertyNames().forEach(n -> {
            if (n.startsWith("baton.")) {
                keys.add(n);
            }
        });
        List<String> problems = new ArrayList<>();
        return new Loaded(ModelProfiles.load(config, keys, problems), problems);
    }

    @Test
    void readsEveryAttributeOfModelsWhoseNamesContainDots() {
        Map<String, String> m = base();
        m.put("baton.models.gpt-5.4-mini.tools", "false");
        m.put("baton.models.gpt-5.4-mini.context-window", "128000");
        m.put("baton.models.gpt-5.4-mini.modalities", "text");
        m.put("baton.models.gpt-5.4.modalities", " text , image, audio ");
        Loaded loaded = load(m);

        assertEquals(List.of(), loaded.problems());
        assertEquals(new ModelProfile("gpt-5.4-mini", false, 128_000, Set.of("text")),
                loaded.profiles().get("gpt-5.4-mini"));
        assertEquals(new ModelProfile("gpt-5.4", true, 0, Set.of("text", "image", "audio")),
                loaded.profiles().get("gpt-5.4"), "defaults for what is not set");
        assertEquals(2, loaded.profiles().size(), "a model nothing is configured for has no profile");
    }

    @Test
    void aModelWithoutKeysIsUnrestricted() {
        BatonConfig config = ConfigLoader.load(config(base()), List.of(new OpenAiAdapterFactory()));
        assertEquals(ModelProfile.unknown("llama-3"), config.model("llama-3"));
        assertEquals(new ModelProfile("llama-3", true, 0, Set.of("text", "image")), config.model("llama-3"));
    }

    @Test
    void theLoaderCarriesProfilesIntoTheConfiguration() {
        Map<String, String> m = base();
        m.put("baton.models.llama-3.tools", "FALSE");
        BatonConfig config = ConfigLoader.load(config(m), List.of(new OpenAiAdapterFactory()));
        assertEquals(false, config.model("llama-3").tools());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            baton.models.gpt-5.4.tools          | yes       | baton.models.gpt-5.4.tools: 'yes' is not true or false (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.context-window | 0         | baton.models.gpt-5.4.context-window: must be between 1 and 10000000 but was 0 (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.context-window | 10000001  | baton.models.gpt-5.4.context-window: must be between 1 and 10000000 but was 10000001 (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.context-window | 128k      | baton.models.gpt-5.4.context-window: '128k' is not a whole number of tokens (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.modalities     | text,video | baton.models.gpt-5.4.modalities: 'video' is not a modality; expected some of [text, image, audio] (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.modalities     | image     | baton.models.gpt-5.4.modalities: 'image' must include text: every chat model reads text (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.max-output-tokens | 0      | baton.models.gpt-5.4.max-output-tokens: must be between 1 and 10000000 but was 0 (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.4.max-tokens     | 10        | baton.models.gpt-5.4.max-tokens: 'max-tokens' is not a model attribute; expected one of [tools, context-window, modalities, max-output-tokens, price.input, price.cached-input, price.output, price.currency] (from PropertiesConfigSource[source=test])
            baton.models.tools                  | false     | baton.models.tools: expected baton.models.<model>.<attribute>, the attribute one of [tools, context-window, modalities, max-output-tokens, price.input, price.cached-input, price.output, price.currency] (from PropertiesConfigSource[source=test])
            baton.models.gpt-5.5.tools          | false     | baton.models.gpt-5.5.tools: no connection lists the model 'gpt-5.5' in baton.connections.<name>.models (from PropertiesConfigSource[source=test])
            """)
    void aBadKeyIsAProblemNamingIt(String key, String value, String expected) {
        Map<String, String> m = base();
        m.put(key, value);
        Loaded loaded = load(m);
        assertEquals(List.of(expected), loaded.problems());
    }

    @Test
    void boundsAreAccepted() {
        Map<String, String> m = base();
        m.put("baton.models.gpt-5.4.context-window", "1");
        m.put("baton.models.llama-3.context-window", "10000000");
        Loaded loaded = load(m);
        assertEquals(List.of(), loaded.problems());
        assertEquals(1, loaded.profiles().get("gpt-5.4").contextWindow());
        assertEquals(10_000_000, loaded.profiles().get("llama-3").contextWindow());
    }

    @Test
    void theExplicitConnectionListDecidesWhichModelsAreServed() {
        Map<String, String> m = base();
        m.put("baton.connections", "local");
        m.put("baton.models.llama-3.tools", "false");
        m.put("baton.models.gpt-5.4.tools", "false");
        Loaded loaded = load(m);
        assertEquals(1, loaded.problems().size(), () -> loaded.problems().toString());
        assertTrue(loaded.problems().get(0).startsWith("baton.models.gpt-5.4.tools: no connection lists the model 'gpt-5.4'"));
    }

    @Test
    void anUnexpandableValueIsAProblem() {
        Map<String, String> m = base();
        m.put("baton.models.gpt-5.4.context-window", "${NO_SUCH_VARIABLE_FOR_BATON}");
        Loaded loaded = load(m);
        assertEquals(1, loaded.problems().size(), () -> loaded.problems().toString());
        assertTrue(loaded.problems().get(0).startsWith("baton.models.gpt-5.4.context-window: cannot be read"),
                loaded.problems().get(0));
    }

    @Test
    void anEnvironmentVariableOverridesADottedKeyButIsNotEnoughOnItsOwn() {
        Map<String, String> m = base();
        m.put("baton.models.gpt-5.4.tools", "true");
        BatonConfig config = ConfigLoader.load(ConfigLoaderTest.envConfig(m,
                Map.of("BATON_MODELS_GPT_5_4_TOOLS", "false")), List.of(new OpenAiAdapterFactory()));
        assertEquals(false, config.model("gpt-5.4").tools());

        String message = assertThrows(FailoverDefinitionException.class, () -> ConfigLoader.load(
                ConfigLoaderTest.envConfig(base(), Map.of("BATON_MODELS_GPT_5_4_MINI_TOOLS", "false")),
                List.of(new OpenAiAdapterFactory()))).getMessage();
        assertTrue(message.contains("BATON_MODELS_GPT_5_4_MINI_TOOLS: matches no baton.models.<model>.<attribute> key"),
                message);
        assertFalse(message.contains("unknown key"), "the dotted guess is not refused on top: " + message);
    }

    @Test
    void everyProblemFailsTheWholeLoadNamingTheKey() {
        Map<String, String> m = base();
        m.put("baton.models.gpt-5.4.tools", "maybe");
        String message = ConfigLoaderTest.problems(m);
        assertTrue(message.contains("baton.models.gpt-5.4.tools: 'maybe' is not true or false (from PropertiesConfigSource[source=test])"), message);
    }
}
