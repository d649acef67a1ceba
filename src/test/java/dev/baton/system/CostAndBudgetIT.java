package dev.baton.system;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.CompletionUsage;

import jakarta.json.JsonObject;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cost and budgets through the sample's endpoint: {@code usage.cost} as the official OpenAI SDK sees it (an extra
 * property of its usage), in answers and in a stream's usage chunk; named keys refused with 402
 * {@code budget_exceeded} once their budget cannot take the next request's worst case, before any provider is called;
 * a named key's allowlist.
 */
class CostAndBudgetIT extends ClientSideIT {

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-cost.war")
                .addClasses(CostConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, CostConfig.class);
    }

    private static ChatCompletionCreateParams question(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("Say hello to the team.").build();
    }

    /** The cost of {@code prompt} and {@code completion} tokens at the configured price, worked out here. */
    private static BigDecimal expected(long prompt, long completion) {
        return new BigDecimal(CostConfig.INPUT).multiply(BigDecimal.valueOf(prompt))
                .add(new BigDecimal(CostConfig.OUTPUT).multiply(BigDecimal.valueOf(completion)))
                .divide(MILLION);
    }

    private static BigDecimal cost(CompletionUsage usage) {
        JsonValue cost = usage._additionalProperties().get("cost");
        assertTrue(cost != null, () -> "usage.cost missing from " + usage);
        assertTrue(cost.asNumber().isPresent(), () -> "usage.cost is not a number: " + cost);
        return new BigDecimal(cost.asNumber().get().toString());
    }

    private static String extra(CompletionUsage usage, String name) {
        JsonValue value = usage._additionalProperties().get(name);
        return value == null ? null : value.convert(String.class);
    }

    @Test
    void theSdkSeesTheEstimatedCostOfAnAnswerAsAnExtraPropertyOfItsUsage() {
        OpenAIClient client = gateway.openAi();
        ChatCompletion completion = client.chat().completions().create(question(Gateway.ROUTE));

        CompletionUsage usage = completion.usage().orElseThrow();
        assertTrue(usage.promptTokens() > 0 && usage.completionTokens() > 0);
        BigDecimal expected = expected(usage.promptTokens(), usage.completionTokens());
        assertEquals(0, expected.compareTo(cost(usage)), () -> "expected " + expected + " in " + usage);
        assertEquals("custom", extra(usage, "price_source"));
        assertEquals("USD", extra(usage, "cost_currency"));
        assertEquals("Hello from primary.", completion.choices().get(0).message().content().orElseThrow());
    }

    @Test
    void aStreamThatAsksForUsageEndsWithItsCost() {
        OpenAIClient client = gateway.openAi();
        ChatCompletionCreateParams params = question(Gateway.ROUTE).toBuilder()
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();
        List<CompletionUsage> usages = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> chunk.usage().ifPresent(usages::add));
        }
        assertEquals(1, usages.size(), "one usage chunk");
        CompletionUsage usage = usages.get(0);
        assertEquals(0, expected(usage.promptTokens(), usage.completionTokens()).compareTo(cost(usage)));
        assertEquals("custom", extra(usage, "price_source"));
    }

    /** A request of at most 20 output tokens: its worst case (about 0.0004 at these prices) is far below 0.002. */
    private static String small(boolean stream) {
        return jakarta.json.Json.createObjectBuilder(Gateway.json(Gateway.chatBody(Gateway.ROUTE, stream)))
                .add("max_tokens", 20).build().toString();
    }

    /** Sends {@code body} with {@code key} until it is refused; the refusal. */
    private HttpResponse<String> untilRefused(String body, String key, List<String> served) {
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> response = gateway.postChat(body, "Bearer " + key);
            if (response.statusCode() != 200) {
                return response;
            }
            served.add(response.body());
            if (i == 0) {
                JsonObject record = gateway.record(header(response, "x-request-id"), key);
                assertTrue(record.getJsonNumber("cost") == null
                        || record.getJsonNumber("cost").bigDecimalValue().signum() > 0, record::toString);
            }
        }
        throw new AssertionError("200 requests and no refusal: the budget held nothing");
    }

    @Test
    void aKeyWhoseBudgetCannotTakeTheNextRequestGets402WithTheResetTimeBeforeAnyProviderIsCalled() {
        int before = simulator.account("primary").requestCount() + simulator.account("standby").requestCount();
        List<String> served = new ArrayList<>();

        HttpResponse<String> refused = untilRefused(small(false), CostConfig.TINY_KEY, served);

        assertTrue(!served.isEmpty(), "the budget took some requests before it refused");
        BigDecimal spent = BigDecimal.ZERO;
        for (String body : served) {
            spent = spent.add(Gateway.json(body).getJsonObject("usage").getJsonNumber("cost").bigDecimalValue());
        }
        assertTrue(spent.compareTo(new BigDecimal("0.002")) <= 0, "spent " + spent + " of a budget of 0.002");
        int calls = simulator.account("primary").requestCount() + simulator.account("standby").requestCount();
        assertEquals(before + served.size(), calls, "the refusal called no provider");
        assertEquals(402, refused.statusCode(), refused::body);
        JsonObject record = gateway.record(header(refused, "x-request-id"), CostConfig.TINY_KEY);
        assertEquals("tiny", record.getString("caller"));
        assertEquals(402, record.getInt("http_status"), record::toString);
        JsonObject error = Gateway.json(refused.body()).getJsonObject("error");
        assertEquals("budget_exceeded", error.getString("code"));
        assertTrue(error.getString("message").contains("`tiny`"), error::toString);
        Instant reset = Instant.parse(header(refused, "x-baton-budget-reset"));
        assertTrue(reset.isAfter(Instant.now()), "resets in the future: " + reset);
        assertTrue(error.getString("message").contains(reset.toString()), error::toString);
        assertEquals("false", header(refused, "x-should-retry"));
        assertEquals(calls, simulator.account("primary").requestCount() + simulator.account("standby").requestCount(),
                "no provider was called");

        // The SDK sees the same refusal; another key is not affected.
        OpenAIServiceException e = assertThrows(OpenAIServiceException.class,
                () -> gateway.openAi(CostConfig.TINY_KEY).chat().completions().create(question(Gateway.ROUTE)
                        .toBuilder().maxTokens(20).build()));
        assertEquals(402, e.statusCode());
        assertEquals(200, gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false), "Bearer " + CostConfig.ROOMY_KEY)
                .statusCode());
    }

    @Test
    void aBudgetedStreamIsChargedFromAUsageChunkTheCallerDidNotAskForAndDoesNotSee() {
        HttpResponse<String> stream = gateway.postChat(small(true), "Bearer " + CostConfig.STREAMER_KEY);

        assertEquals(200, stream.statusCode(), stream::body);
        List<String> events = Gateway.dataEvents(stream.body());
        assertEquals("[DONE]", events.get(events.size() - 1));
        assertFalse(stream.body().contains("\"cost\""), "no usage chunk for a caller that did not ask: " + stream.body());
        assertTrue(simulator.account("primary").lastRequest().json().getJsonObject("stream_options")
                .getBoolean("include_usage"), "Baton asked the provider for usage");

        HttpResponse<String> refused = untilRefused(small(true), CostConfig.STREAMER_KEY, new ArrayList<>());
        assertEquals(402, refused.statusCode(), refused::body);
        assertEquals("budget_exceeded", Gateway.json(refused.body()).getJsonObject("error").getString("code"),
                "a stream refused before its first event is answered in JSON: " + refused.body());
    }

    @Test
    void aNamedKeyMayNameOnlyItsOwnModels() {
        HttpResponse<String> refused = gateway.postChat(Gateway.chatBody("mixed", false),
                "Bearer " + CostConfig.ROOMY_KEY);
        assertEquals(403, refused.statusCode(), refused::body);
        assertEquals("model_not_allowed", Gateway.json(refused.body()).getJsonObject("error").getString("code"));

        HttpResponse<String> models = gateway.send(java.net.http.HttpRequest.newBuilder(gateway.uri("v1/models"))
                .header("Authorization", "Bearer " + CostConfig.ROOMY_KEY).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, models.statusCode());
        assertTrue(models.body().contains("\"demo\"") && !models.body().contains("\"mixed\""), models.body());
        // The sample's unnamed key keeps working as before.
        assertEquals(200, gateway.postChat(Gateway.chatBody("mixed", false)).statusCode());
    }
}
