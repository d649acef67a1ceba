package dev.baton.system;

import com.openai.errors.NotFoundException;
import com.openai.errors.RateLimitException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import dev.baton.testkit.Behavior;


import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;


import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.jboss.arquillian.container.test.api.Deployment;



import org.jboss.shrinkwrap.api.spec.WebArchive;




import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;


import static dev.baton.system.Gateway.attempts;
import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Final errors as an OpenAI client receives them: status, OpenAI-shaped body, {@code x-should-retry} and
 * {@code Retry-After}, and the record. The tests share one deployment and therefore Baton's health state, so they run
 * in order: refusals that call no provider first, then failures that only count against health, and the rate limit,
 * which parks both accounts, last. The spend limit parks the primary for 15 minutes and has its own deployment
 * ({@link SpendLimitIT}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FinalErrorsIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it.war");
    }

    /** The OpenAI error object of a response, after checking the envelope. */
    private static JsonObject error(HttpResponse<String> response) {
        assertTrue(header(response, "content-type").startsWith("application/json"), response.headers()::toString);
        JsonObject error = Gateway.json(response.body()).getJsonObject("error");
        assertTrue(error != null && error.containsKey("message") && error.containsKey("type")
                && error.containsKey("code") && error.containsKey("param"), response::body);
        assertTrue(error.get("attempts") instanceof JsonArray, () -> "every error lists its attempts: " + response.body());
        return error;
    }

    /**
     * The same chat request on a raw connection: its failure answer keeps the connection where the
     * server allows it (the next request on it is answered), so a client getting many does not
     * reconnect for each. Open Liberty closes after 5xx whatever the application does (see
     * {@link RawHttp#keepsAliveAfter}).
     */
    private RawHttp.Response failureOnARawConnection() {
        try (RawHttp http = new RawHttp(base, 30_000)) {
            RawHttp.Response failure = http.post(RawHttp.path(base, "v1/chat/completions"), "Bearer " + Gateway.KEY,
                    Gateway.chatBody(Gateway.ROUTE, false).getBytes(StandardCharsets.UTF_8));
            if (http.keptAfter(failure)) {
                RawHttp.Response next = http.get(RawHttp.path(base, "v1/models"), "Bearer " + Gateway.KEY);
                assertEquals(200, next.status(), next::body);
            }
            return failure;
        }
    }

    private void assertNoProviderCalled() {
        assertEquals(0, simulator.account("primary").requestCount());
        assertEquals(0, simulator.account("standby").requestCount());
    }

    @Test
    @Order(1)
    void refusesAnUnknownModelWith404WithoutCallingAProvider() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody("gpt-nonexistent", false));

        assertEquals(404, response.statusCode(), response::body);
        assertEquals("model_not_found", error(response).getString("code"));
        assertEquals("false", header(response, "x-should-retry"));
        assertTrue(response.headers().firstValue("x-request-id").isPresent());
        NotFoundException sdk = assertThrows(NotFoundException.class, () -> gateway.openAi().chat().completions()
                .create(ChatCompletionCreateParams.builder().model("gpt-nonexistent").addUserMessage("Hi").build()));
        assertEquals("model_not_found", sdk.code().orElse(null));
        assertNoProviderCalled();
    }

    @Test
    @Order(2)
    void refusesAMissingKeyWith401() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false), null);

        assertEquals(401, response.statusCode(), response::body);
        error(response);
        assertTrue(response.headers().firstValue("x-request-id").isPresent());
        assertNoProviderCalled();
    }

    @Test
    @Order(3)
    void refusesAWrongKeyWith401AndTheSdkSaysUnauthorized() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false),
                "Bearer not-the-demo-key");

        assertEquals(401, response.statusCode(), response::body);
        error(response);
        assertThrows(UnauthorizedException.class, () -> gateway.openAi("not-the-demo-key").chat().completions()
                .create(ChatCompletionCreateParams.builder().model(Gateway.ROUTE).addUserMessage("Hi").build()));
        assertNoProviderCalled();
    }

    @Test
    @Order(4)
    void refusesMalformedJsonWith400() {
        HttpResponse<String> response = gateway.postChat("{\"model\": \"demo\", \"messages\": [");

        assertEquals(400, response.statusCode(), response::body);
        assertEquals("invalid_request_error", error(response).getString("type"));
        assertEquals("false", header(response, "x-should-retry"));
        assertNoProviderCalled();
    }

    @Test
    @Order(4)
    void refusesARouteTheEndpointDoesNotAllowWith403() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody("internal", false));

        assertEquals(403, response.statusCode(), response::body);
        assertEquals("model_not_allowed", error(response).getString("code"));
        assertEquals("false", header(response, "x-should-retry"));
        assertNoProviderCalled();
    }

    @Test
    @Order(4)
    void refusesAnUnknownFallbackWith400NamingTheEntry() {
        String body = Gateway.json(Gateway.chatBody(Gateway.MODEL, false)).entrySet().stream()
                .collect(jakarta.json.Json::createObjectBuilder, (b, e) -> b.add(e.getKey(), e.getValue()), (a, b) -> { })
                .add("fallbacks", jakarta.json.Json.createArrayBuilder().add("gpt-nonexistent")).build().toString();

        HttpResponse<String> response = gateway.postChat(body);

        assertEquals(400, response.statusCode(), response::body);
        JsonObject error = error(response);
        assertEquals("unknown_fallback_model", error.getString("code"));
        assertTrue(error.getString("message").contains("fallbacks[0]: `gpt-nonexistent`"), response::body);
        assertNoProviderCalled();
    }

    @Test
    @Order(4)
    void refusesABodyOverTheLimitWith413() {
        String huge = Gateway.chatBody(Gateway.ROUTE, false).replace("Say hello.", "x".repeat(1_100_000));

        HttpResponse<String> response = gateway.postChat(huge);

        assertEquals(413, response.statusCode(), response::body);
        assertEquals("request_too_large", error(response).getString("code"));
        assertNoProviderCalled();
    }

    /**
     * A body just under the limit spans many of the container's buffers, however the server reads it: it must reach
     * the provider whole. The simulator counts a quarter of the body it received as prompt tokens.
     */
    @Test
    @Order(4)
    void servesABodyJustUnderTheLimitWhole() {
        int prompt = 1_000_000;
        String large = Gateway.chatBody(Gateway.ROUTE, false).replace("Say hello.", "x".repeat(prompt));

        HttpResponse<String> response = gateway.postChat(large);

        assertEquals(200, response.statusCode(), () -> response.body().substring(0, 500));
        int promptTokens = Gateway.json(response.body()).getJsonObject("usage").getInt("prompt_tokens");
        assertTrue(promptTokens >= prompt / 4 && promptTokens < (prompt + 1_000) / 4,
                () -> promptTokens + " prompt tokens: the provider got another body than the one sent");
    }

    @Test
    @Order(5)
    void answers502UpstreamErrorWhenBothAccountsAreOverloadedAndRecordsEveryAttempt() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        simulator.account("standby").setDefault(Behavior.overloaded());

        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));

        assertEquals(502, response.statusCode(), response::body);
        JsonObject error = error(response);
        assertEquals("upstream_error", error.getString("code"));
        assertEquals("true", header(response, "x-should-retry"));
        assertTrue(Long.parseLong(header(response, "retry-after-ms")) >= 1_000, "an SDK that obeys it waits a second");
        assertTrue(Long.parseLong(header(response, "retry-after")) >= 1);

        JsonObject record = gateway.record(header(response, "x-request-id"));
        assertEquals("error", record.getString("status"));
        assertEquals(502, record.getInt("http_status"));
        assertEquals("upstream_error", record.getString("error_code"));
        List<String> tried = attempts(record);
        assertEquals(simulator.account("primary").requestCount() + simulator.account("standby").requestCount(),
                tried.size(), "every provider call is in the record: " + tried);
        assertTrue(tried.contains("primary:503:server_error") && tried.contains("standby:503:server_error"),
                tried::toString);
        assertTrue(tried.stream().allMatch(a -> a.endsWith(":503:server_error")), tried::toString);
        List<String> listed = error.getJsonArray("attempts").stream().map(JsonValue::asJsonObject)
                .map(a -> a.getString("connection") + ":" + a.getInt("status") + ":" + a.getString("kind")).toList();
        assertEquals(tried, listed, "the error's attempts are the record's, as data");

        RawHttp.Response again = failureOnARawConnection();
        assertTrue(again.status() == 502 || again.status() == 503, again::body);
    }

    @Test
    @Order(6)
    void answers429WithRetryAfterWhenBothAccountsAreRateLimited() {
        simulator.account("primary").setDefault(Behavior.rateLimited(Duration.ofSeconds(1)));
        simulator.account("standby").setDefault(Behavior.rateLimited(Duration.ofSeconds(1)));

        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));

        assertEquals(429, response.statusCode(), response::body);
        error(response);
        assertEquals("true", header(response, "x-should-retry"));
        long retryAfter = Long.parseLong(header(response, "retry-after"));
        assertTrue(retryAfter >= 1 && retryAfter <= 30, () -> "Retry-After: " + retryAfter);

        JsonObject record = gateway.record(header(response, "x-request-id"));
        assertEquals(429, record.getInt("http_status"));
        List<String> tried = attempts(record);
        assertTrue(tried.contains("primary:429:rate_limit") && tried.contains("standby:429:rate_limit"),
                tried::toString);

        RateLimitException sdk = assertThrows(RateLimitException.class, () -> gateway.openAi().chat().completions()
                .create(ChatCompletionCreateParams.builder().model(Gateway.ROUTE).addUserMessage("Hi").build()));
        assertEquals(429, sdk.statusCode());

        RawHttp.Response limited = failureOnARawConnection();
        assertEquals(429, limited.status(), limited::body);
    }
}
