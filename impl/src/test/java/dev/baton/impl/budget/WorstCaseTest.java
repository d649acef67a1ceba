package dev.baton.impl.budget;

import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.engine.EngineFixture;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a budget holds for a request: its size bounds its input, its token limit (times n) its output. */
class WorstCaseTest {

    /** One unit per token, input and output alike: the cost in millionths is the token count. */
    private static BatonConfig config(String... extra) {
        Map<String, String> props = new HashMap<>(Map.of(
                "baton.connections.a.provider", "openai",
                "baton.connections.a.base-url", "http://127.0.0.1:9/v1",
                "baton.connections.a.models", "m, free",
                "baton.models.m.price.input", "1",
                "baton.models.m.price.output", "1"));
        for (int i = 0; i < extra.length; i += 2) {
            props.put(extra[i], extra[i + 1]);
        }
        return EngineFixture.config(props);
    }

    private static JsonObject body(String content, String... limits) {
        var b = Json.createObjectBuilder().add("model", "m")
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", content)));
        for (int i = 0; i < limits.length; i += 2) {
            b.add(limits[i], Integer.parseInt(limits[i + 1]));
        }
        return b.build();
    }

    private static long tokens(JsonObject body, BatonConfig config) {
        return WorstCase.cost(body, "m", config).movePointRight(6).longValueExact();
    }

    @Test
    void theInputIsBoundedByTheRequestsUtf8BytesAndTheOutputByItsTokenLimit() {
        JsonObject body = body("Grüße, 世界! 👋", "max_tokens", "100");
        long bytes = body.toString().getBytes(StandardCharsets.UTF_8).length;

        long held = tokens(body, config());

        assertTrue(held - 100 >= bytes, "input " + (held - 100) + " covers the " + bytes + " bytes of the body");
        assertTrue(held - 100 <= bytes + 40, "and not much more: " + (held - 100));
    }

    @Test
    void maxCompletionTokensWinsOverMaxTokensAndNMultiplies() {
        BatonConfig config = config();
        long fifty = tokens(body("Hi.", "max_tokens", "999", "max_completion_tokens", "50", "n", "3"), config);

        assertEquals(3 * 10, tokens(body("Hi.", "max_tokens", "999", "max_completion_tokens", "60", "n", "3"), config)
                - fifty, "ten more tokens per choice, three choices");
        assertEquals(50, tokens(body("Hi.", "max_tokens", "999", "max_completion_tokens", "50", "n", "4"), config)
                - fifty, "one more choice of fifty");
    }

    @Test
    void withoutATokenLimitTheModelsCeilingElseTheDefaultIsHeld() {
        JsonObject body = body("Hi.");
        long input = tokens(body("Hi."), config("baton.models.m.max-output-tokens", "1")) - 1;

        assertEquals(input + 2048, tokens(body, config("baton.models.m.max-output-tokens", "2048")));
        assertEquals(input + 16_384, tokens(body, config()));
        assertEquals(input + 500, tokens(body, config("baton.budgets.default-output-tokens", "500")));
    }

    @Test
    void anImageCountsAFixedNumberOfTokensWhateverItsBytes() {
        String image = "data:image/png;base64," + "A".repeat(200_000);
        JsonObject body = Json.createObjectBuilder().add("model", "m").add("max_tokens", 1)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder().add("role", "user")
                        .add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                .add("type", "image_url").add("image_url", Json.createObjectBuilder()
                                        .add("url", image)))))).build();

        long held = tokens(body, config());

        assertTrue(held > WorstCase.MEDIA_TOKENS && held < WorstCase.MEDIA_TOKENS + 200, "held " + held);
    }

    @Test
    void severalBytesPerTokenHoldLessAndAnUnpricedModelHoldsNothing() {
        JsonObject body = body("x".repeat(4000), "max_tokens", "10");
        long strict = tokens(body, config()) - 10;
        long quarter = tokens(body, config("baton.budgets.input-bytes-per-token", "4")) - 10;

        assertEquals((strict + 3) / 4, quarter);
        assertEquals(0, BigDecimal.ZERO.compareTo(WorstCase.cost(body, "free", config())));
    }
}
