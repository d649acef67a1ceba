package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorBehaviorsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    static Stream<Arguments> providerErrors() {
        return Stream.of(
                arguments(Behavior.openAiError(418, "teapot_error", null, "short and stout"), 418, "teapot_error", null, null),
                arguments(Behavior.rateLimitedWithoutRetryAfter(), 429, "requests", "rate_limit_exceeded", null),
                arguments(Behavior.slowDown(), 429, "rate_limit_error", "slow_down", null),
                arguments(Behavior.spendLimit("insufficient_quota"), 429, "insufficient_quota", "insufficient_quota", null),
                arguments(Behavior.spendLimit("credit_balance_exhausted"), 429, "insufficient_quota", "credit_balance_exhausted", null),
                arguments(Behavior.spendLimit("organization_spend_limit_exceeded"), 429, "insufficient_quota", "organization_spend_limit_exceeded", null),
                arguments(Behavior.spendLimit("project_spend_limit_exceeded"), 429, "insufficient_quota", "project_spend_limit_exceeded", null),
                arguments(Behavior.spendLimit("organization_usage_limit_exceeded"), 429, "insufficient_quota", "organization_usage_limit_exceeded", null),
                arguments(Behavior.overloaded(), 503, "service_unavailable_error", "server_is_overloaded", null),
                arguments(Behavior.serverError(), 500, "server_error", null, null),
                arguments(Behavior.gatewayTimeout(), 504, "server_error", null, null),
                arguments(Behavior.invalidRequest("Invalid value for 'temperature'.", "temperature"), 400, "invalid_request_error", null, "temperature"),
                arguments(Behavior.contextLengthExceeded(), 400, "invalid_request_error", "context_length_exceeded", "messages"),
                arguments(Behavior.contentPolicyViolation(), 400, "invalid_request_error", "content_policy_violation", null),
                arguments(Behavior.unauthorized(), 401, "invalid_request_error", "invalid_api_key", null),
                arguments(Behavior.forbidden(), 403, "request_forbidden", "unsupported_country_region_territory", null),
                arguments(Behavior.modelNotFound(), 404, "invalid_request_error", "model_not_found", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providerErrors")
    void eachProviderErrorHasItsStatusTypeCodeAndParam(Behavior behavior, int status, String type, String code,
            String param) throws Exception {
        sim.account("a").enqueue(behavior);

        HttpResponse<String> response = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals(status, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertTrue(response.headers().firstValue("x-request-id").isPresent());
        assertFalse(response.headers().firstValue("retry-after").isPresent());
        JsonObject error = Client.json(response.body()).getJsonObject("error");
        assertEquals(type, error.getString("type"));
        assertEquals(code, error.isNull("code") ? null : error.getString("code"));
        assertEquals(param, error.isNull("param") ? null : error.getString("param"));
        assertFalse(error.getString("message").isBlank());
    }

    @Test
    void unauthorizedQuotesAMaskedKeyLikeOpenAi() throws Exception {
        sim.account("a").enqueue(Behavior.unauthorized());

        String message = Client.json(client.complete(sim.baseUrl("a"), "gpt-4o").body())
                .getJsonObject("error").getString("message");

        assertEquals("Incorrect API key provided: sk-proj-****...abcd. You can find your API key at"
                + " https://platform.openai.com/account/api-keys.", message);
    }

    @Test
    void modelNotFoundNamesTheRequestedModel() throws Exception {
        sim.account("a").enqueue(Behavior.modelNotFound());

        String message = Client.json(client.complete(sim.baseUrl("a"), "gpt-9").body())
                .getJsonObject("error").getString("message");

        assertTrue(message.contains("gpt-9"), message);
    }

    @Test
    void rateLimitedSendsRetryAfterInWholeSecondsRoundedUpAndInMilliseconds() throws Exception {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofMillis(1500)));

        HttpResponse<String> response = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals(429, response.statusCode());
        assertEquals("2", response.headers().firstValue("retry-after").orElseThrow());
        assertEquals("1500", response.headers().firstValue("retry-after-ms").orElseThrow());
        assertEquals("0", response.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow());
        assertEquals("1.5s", response.headers().firstValue("x-ratelimit-reset-requests").orElseThrow());
        assertEquals("rate_limit_exceeded", Client.json(response.body()).getJsonObject("error").getString("code"));
    }

    @Test
    void badGatewayAnswersWithAProxysHtmlPage() throws Exception {
        sim.account("a").enqueue(Behavior.badGateway());

        HttpResponse<String> response = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals(502, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElseThrow().startsWith("text/html"));
        assertTrue(response.body().contains("502 Bad Gateway"));
    }

    @Test
    void statusSendsTheBodyVerbatimWithAContentTypeGuessedFromIt() throws Exception {
        sim.account("a").enqueue(Behavior.status(200, "{\"custom\":true}"), Behavior.status(503, "upstream busy"));

        HttpResponse<String> json = client.complete(sim.baseUrl("a"), "gpt-4o");
        HttpResponse<String> text = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals("{\"custom\":true}", json.body());
        assertEquals("application/json", json.headers().firstValue("content-type").orElseThrow());
        assertEquals(503, text.statusCode());
        assertEquals("upstream busy", text.body());
        assertTrue(text.headers().firstValue("content-type").orElseThrow().startsWith("text/plain"));
    }

    @Test
    void withHeaderAddsHeadersAndReplacesOnesOfTheSameName() throws Exception {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(1))
                .withHeader("Retry-After", "7").withHeader("x-should-retry", "false"));

        HttpResponse<String> response = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals(List.of("7"), response.headers().allValues("retry-after"));
        assertEquals("false", response.headers().firstValue("x-should-retry").orElseThrow());
    }

    @Test
    void errorsAnswerStreamingRequestsWithPlainJson() throws Exception {
        sim.account("a").enqueue(Behavior.overloaded());

        HttpResponse<String> response = client.send(
                Client.chat(sim.baseUrl("a"), Client.chatBody("gpt-4o", true, false)).build());

        assertEquals(503, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rate_limit_exceeded", "", "QUOTA"})
    void spendLimitRefusesCodesOpenAiDoesNotSend(String code) {
        assertThrows(IllegalArgumentException.class, () -> Behavior.spendLimit(code));
    }

    @Test
    void durationsAreFormattedLikeGo() {
        assertEquals("12ms", Behavior.goDuration(Duration.ofMillis(12)));
        assertEquals("1s", Behavior.goDuration(Duration.ofSeconds(1)));
        assertEquals("1.5s", Behavior.goDuration(Duration.ofMillis(1500)));
        assertEquals("6m0s", Behavior.goDuration(Duration.ofMinutes(6)));
        assertEquals("1h2m3s", Behavior.goDuration(Duration.ofSeconds(3723)));
    }
}
