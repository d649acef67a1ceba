package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AnthropicErrorsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    static Stream<Arguments> anthropicErrors() {
        return Stream.of(
                arguments(Behavior.anthropicError(413, "request_too_large", "Request exceeds the maximum size"), 413, "request_too_large"),
                arguments(Behavior.rateLimitedWithoutRetryAfter(), 429, "rate_limit_error"),
                arguments(Behavior.overloaded(), 529, "overloaded_error"),
                arguments(Behavior.serverError(), 500, "api_error"),
                arguments(Behavior.gatewayTimeout(), 504, "timeout_error"),
                arguments(Behavior.invalidRequest("Input should be less than or equal to 1", "temperature"), 400, "invalid_request_error"),
                arguments(Behavior.contextLengthExceeded(), 400, "invalid_request_error"),
                arguments(Behavior.unauthorized(), 401, "authentication_error"),
                arguments(Behavior.forbidden(), 403, "permission_error"),
                arguments(Behavior.modelNotFound(), 404, "not_found_error"),
                arguments(Behavior.billingError(), 402, "billing_error"),
                arguments(Behavior.enforcedSpendLimit(), 429, "rate_limit_error"),
                arguments(Behavior.usageLimitReached(), 400, "invalid_request_error"),
                arguments(Behavior.workspaceUsageLimitReached(), 400, "invalid_request_error"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("anthropicErrors")
    void eachErrorAnswersInAnthropicsEnvelope(Behavior behavior, int status, String type) throws Exception {
        sim.account("a").enqueue(behavior);

        HttpResponse<String> response = client.message(sim.baseUrl("a"), "claude-sonnet-4-5");

        assertEquals(status, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertFalse(response.headers().firstValue("retry-after").isPresent());
        JsonObject body = Client.json(response.body());
        assertEquals("error", body.getString("type"));
        assertEquals(type, body.getJsonObject("error").getString("type"));
        assertFalse(body.getJsonObject("error").getString("message").isBlank());
        assertEquals(response.headers().firstValue("request-id").orElseThrow(), body.getString("request_id"));
    }

    @Test
    void messagesSayWhatAnthropicSays() throws Exception {
        sim.account("a").enqueue(Behavior.contextLengthExceeded(), Behavior.modelNotFound(),
                Behavior.usageLimitReached(), Behavior.workspaceUsageLimitReached(),
                Behavior.invalidRequest("Input should be at most 1", "temperature"));

        assertTrue(message().startsWith("prompt is too long: "));
        assertEquals("model: claude-sonnet-4-5", message());
        assertTrue(message().matches("You have reached your specified API usage limits\\. You will regain access on"
                + " \\d{4}-\\d{2}-01 at 00:00 UTC\\."));
        assertTrue(message().matches("You have reached your specified workspace API usage limits\\. You will regain"
                + " access on \\d{4}-\\d{2}-01 at 00:00 UTC\\."));
        assertEquals("temperature: Input should be at most 1", message());
    }

    @Test
    void rateLimitedSendsRetryAfterInSecondsAndAnthropicRateLimitHeaders() throws Exception {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofMillis(1500)));

        HttpResponse<String> response = client.message(sim.baseUrl("a"), "claude-sonnet-4-5");

        assertEquals(429, response.statusCode());
        assertEquals("2", response.headers().firstValue("retry-after").orElseThrow());
        assertFalse(response.headers().firstValue("retry-after-ms").isPresent());
        assertEquals("0", response.headers().firstValue("anthropic-ratelimit-requests-remaining").orElseThrow());
        Instant reset = Instant.parse(response.headers().firstValue("anthropic-ratelimit-requests-reset").orElseThrow());
        assertTrue(reset.isAfter(Instant.now().minusSeconds(5)));
        assertFalse(response.headers().firstValue("x-ratelimit-remaining-requests").isPresent());
    }

    @Test
    void enforcedSpendLimitCarriesItsErrorCodeInDetails() throws Exception {
        sim.account("a").enqueue(Behavior.enforcedSpendLimit());

        JsonObject error = Client.json(client.message(sim.baseUrl("a"), "claude-sonnet-4-5").body())
                .getJsonObject("error");

        assertEquals("enforced_spend_limit_reached", error.getJsonObject("details").getString("error_code"));
    }

    @Test
    void openAiOnlyBehavioursAnswerAnthropicRequestsWithASimulatorError() throws Exception {
        sim.account("a").enqueue(Behavior.slowDown());

        HttpResponse<String> response = client.message(sim.baseUrl("a"), "claude-sonnet-4-5");

        assertEquals(500, response.statusCode());
        assertEquals("unsupported-behavior", response.headers().firstValue("x-baton-simulator-error").orElseThrow());
        JsonObject error = Client.json(response.body()).getJsonObject("error");
        assertEquals("simulator_error", error.getString("type"));
        assertTrue(error.getString("message").contains("Behavior.slowDown() has no Anthropic Messages equivalent"),
                error.getString("message"));
    }

    @Test
    void anthropicOnlyBehavioursAnswerOpenAiRequestsWithASimulatorError() throws Exception {
        sim.account("a").enqueue(Behavior.billingError());

        HttpResponse<String> response = client.complete(sim.baseUrl("a"), "gpt-4o");

        assertEquals(500, response.statusCode());
        assertEquals("unsupported-behavior", response.headers().firstValue("x-baton-simulator-error").orElseThrow());
        JsonObject error = Client.json(response.body()).getJsonObject("error");
        assertEquals("simulator_error", error.getString("type"));
        assertTrue(error.getString("message").contains("Behavior.billingError() has no OpenAI chat completions"
                + " equivalent"), error.getString("message"));
    }

    @Test
    void badGatewayIsTheSameHtmlPageOnEitherWire() throws Exception {
        sim.account("a").enqueue(Behavior.badGateway());

        HttpResponse<String> response = client.message(sim.baseUrl("a"), "claude-sonnet-4-5");

        assertEquals(502, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElseThrow().startsWith("text/html"));
    }

    private String message() throws Exception {
        return Client.json(client.message(sim.baseUrl("a"), "claude-sonnet-4-5").body())
                .getJsonObject("error").getString("message");
    }
}
