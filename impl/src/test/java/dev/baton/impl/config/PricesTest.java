package dev.baton.impl.config;

import dev.baton.Cost;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Prices: the arithmetic with golden numbers, the built-in list, and {@code baton.models.<model>.price.*}. */
class PricesTest {

    private static JsonObject usage(int prompt, int cached, int completion) {
        var u = Json.createObjectBuilder().add("prompt_tokens", prompt).add("completion_tokens", completion)
                .add("total_tokens", prompt + completion);
        if (cached >= 0) {
            u.add("prompt_tokens_details", Json.createObjectBuilder().add("cached_tokens", cached));
        }
        return u.build();
    }

    private static ModelPrice price(String in, String cached, String out) {
        return new ModelPrice(new BigDecimal(in), new BigDecimal(cached), new BigDecimal(out), "USD", "custom");
    }

    /** Golden rows: tokens and rates per million, and the cost worked out by hand. */
    @ParameterizedTest
    @CsvSource({
            // prompt, cached, completion, input, cached input, output -> cost
            "1000, 400, 500, 2.50, 1.25, 10.00, 0.007",       // 600*2.5 + 400*1.25 + 500*10 = 7000 per million
            "214, -1, 96, 1.00, 0.10, 2.50, 0.000454",        // no details: every prompt token uncached
            "1000000, 0, 0, 0.15, 0.075, 0.60, 0.15",         // a million input tokens cost the input rate
            "0, 0, 1000000, 0.15, 0.075, 0.60, 0.6",
            "3, 5, 1, 1.00, 0.10, 2.00, 0.0000023",           // cached above prompt is capped at prompt: 3*0.1 + 1*2
            "0, 0, 0, 2.50, 1.25, 10.00, 0"})
    void costsTheUsageAtTheRates(int prompt, int cached, int completion, String in, String cachedIn, String out,
                                 String expected) {
        Cost cost = price(in, cachedIn, out).cost(usage(prompt, cached, completion));
        assertEquals(0, new BigDecimal(expected).compareTo(cost.amount()), () -> "was " + cost.amount());
        assertEquals("USD", cost.currency());
        assertEquals("custom", cost.priceSource());
    }

    @Test
    void noUsageNoCost() {
        assertNull(price("1", "1", "1").cost(null));
    }

    @Test
    void theBuiltInListIsDatedAndPricesTheCommonModels() {
        PriceList list = PriceList.builtIn();
        assertTrue(list.asOf().isAfter(LocalDate.of(2025, 1, 1)), "dated: " + list.asOf());
        for (String model : new String[] {"gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-5", "gpt-5-mini", "o4-mini",
                "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-3-5-haiku-20241022"}) {
            ModelPrice p = list.price(model).orElseThrow(() -> new AssertionError(model + " is not listed"));
            assertEquals("list", p.source());
            assertEquals("USD", p.currency());
            assertTrue(p.cachedInput().compareTo(p.input()) <= 0 && p.input().compareTo(p.output()) < 0,
                    model + ": cached <= input < output");
        }
        ModelPrice mini = list.price("gpt-4o-mini").orElseThrow();
        assertEquals(0, new BigDecimal("0.15").compareTo(mini.input()));
        assertEquals(0, new BigDecimal("0.60").compareTo(mini.output()));
    }

    private static Map<String, String> connections() {
        Map<String, String> m = new HashMap<>();
        m.put("baton.connections.a.provider", "openai");
        m.put("baton.connections.a.base-url", "http://127.0.0.1:9/v1");
        m.put("baton.connections.a.models", "gpt-4o-mini, house-model.v2");
        return m;
    }

    private static BatonConfig load(Map<String, String> props) {
        return ConfigLoader.load(new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(props, "test", 100))
                .build(), Adapters.discover());
    }

    @Test
    void aCustomPriceOverridesTheListAndCachedInputDefaultsToInput() {
        Map<String, String> m = connections();
        m.put("baton.models.gpt-4o-mini.price.input", "0.10");
        m.put("baton.models.gpt-4o-mini.price.output", "0.40");
        m.put("baton.models.house-model.v2.price.input", "1");
        m.put("baton.models.house-model.v2.price.output", "3");
        m.put("baton.models.house-model.v2.price.currency", "EUR");

        BatonConfig config = load(m);

        ModelPrice mini = config.price("gpt-4o-mini").orElseThrow();
        assertEquals("custom", mini.source());
        assertEquals(0, new BigDecimal("0.10").compareTo(mini.cachedInput()), "no cached rate: the input rate");
        ModelPrice house = config.price("house-model.v2").orElseThrow();
        assertEquals("EUR", house.currency());
        assertTrue(config.price("gpt-4o").isPresent(), "listed models need no configuration");
        assertTrue(config.price("llama-3").isEmpty());
    }

    @Test
    void refusesBadPricesNamingTheKey() {
        Map<String, String> m = connections();
        m.put("baton.models.gpt-4o-mini.price.input", "cheap");
        m.put("baton.models.gpt-4o-mini.price.currency", "dollars");
        m.put("baton.models.house-model.v2.price.output", "-1");
        m.put("baton.models.unserved.price.input", "1");

        String problems = assertThrows(FailoverDefinitionException.class, () -> load(m)).getMessage();

        assertTrue(problems.contains("baton.models.gpt-4o-mini.price.input: 'cheap' is not a price"), problems);
        assertTrue(problems.contains("baton.models.gpt-4o-mini.price.output: required"), problems);
        assertTrue(problems.contains("baton.models.gpt-4o-mini.price.currency: 'dollars' is not a three-letter"), problems);
        assertTrue(problems.contains("baton.models.house-model.v2.price.output: must be between 0 and"), problems);
        assertTrue(problems.contains("baton.models.house-model.v2.price.input: required"), problems);
        assertTrue(problems.contains("baton.models.unserved.price.input: no connection lists the model 'unserved'"),
                problems);
    }
}
