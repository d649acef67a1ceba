package dev.baton.bedrock;

import dev.baton.FailureKind;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.contract.Collect;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTarget;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.testkit.RecordedRequest;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Bedrock adapter against the simulated Bedrock over loopback: signatures, credentials, streams, failures. */
class BedrockAdapterTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    static final String KEY_ID = "AKIDBEDROCKTEST1";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final String WRONG_SECRET = "wrongXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final String TOKEN = "IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN0123456789";
    static final String MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

    private final ProviderAdapter adapter = new BedrockAdapterFactory().create(Adapters.context(EngineFixture.HTTP,
            8 * 1024 * 1024, new Redactor(List.of(SECRET, WRONG_SECRET, TOKEN)), Clock.systemUTC()));

    private static ProviderTarget target(String account, Map<String, String> settings, String apiKey) {
        return new ProviderTarget("br", "bedrock", URI.create(sim.bedrockBaseUrl(account)), apiKey, MODEL, Map.of(),
                List.of(), settings);
    }

    private static ProviderTarget signed(String account, String secret) {
        return target(account, Map.of("region", "us-east-1", "access-key-id", KEY_ID, "secret-access-key", secret), "");
    }

    private static JsonObject body(boolean stream, boolean includeUsage) {
        var body = Json.createObjectBuilder().add("model", "ignored")
                .add("messages", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("role", "system").add("content", "Be brief."))
                        .add(Json.createObjectBuilder().add("role", "user").add("content", "Say hello.")))
                .add("max_tokens", 100).add("stream", stream);
        if (includeUsage) {
            body.add("stream_options", Json.createObjectBuilder().add("include_usage", true));
        }
        return body.build();
    }

    private JsonObject complete(ProviderTarget target) throws Exception {
        return adapter.complete(target, body(false, false), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
    }

    private ProviderException completeFails(ProviderTarget target) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> complete(target));
        return assertInstanceOf(ProviderException.class, e.getCause());
    }

    private CompletableFuture<List<JsonObject>> stream(ProviderTarget target, boolean includeUsage) {
        return Collect.chunks(adapter.stream(target, body(true, includeUsage), Duration.ofSeconds(5)));
    }

    private ProviderException streamFails(ProviderTarget target) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> stream(target, false).get(10, TimeUnit.SECONDS));
        return assertInstanceOf(ProviderException.class, e.getCause());
    }

    @Test
    void aSignedRequestIsAnsweredAndGoesToTheModelsConversePath() throws Exception {
        sim.account("s").awsCredentials(KEY_ID, SECRET).enqueue(Behavior.reply("Hi there"));

        JsonObject answer = complete(signed("s", SECRET));

        assertEquals("Hi there", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message")
                .getString("content"));
        assertEquals(MODEL, answer.getString("model"));
        RecordedRequest request = sim.account("s").lastRequest();
        assertEquals("/s/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse", request.path());
        assertTrue(request.header("authorization").orElseThrow().startsWith("AWS4-HMAC-SHA256 Credential="
                + KEY_ID + "/"));
        assertTrue(request.header("authorization").orElseThrow().contains("/us-east-1/bedrock/aws4_request"));
        JsonObject converse = request.json();
        assertEquals("Be brief.", converse.getJsonArray("system").getJsonObject(0).getString("text"));
        assertEquals(100, converse.getJsonObject("inferenceConfig").getInt("maxTokens"));
    }

    @Test
    void aSignedStreamIsAnsweredWithChunksAndTheUsageChunk() throws Exception {
        sim.account("s").awsCredentials(KEY_ID, SECRET).enqueue(Behavior.reply("one two three"));

        List<JsonObject> chunks = stream(signed("s", SECRET), true).get(10, TimeUnit.SECONDS);

        StringBuilder text = new StringBuilder();
        chunks.stream().filter(c -> !c.getJsonArray("choices").isEmpty())
                .map(c -> c.getJsonArray("choices").getJsonObject(0).getJsonObject("delta"))
                .filter(d -> d.containsKey("content")).forEach(d -> text.append(d.getString("content")));
        assertEquals("one two three", text.toString());
        JsonObject last = chunks.get(chunks.size() - 1);
        assertTrue(last.getJsonArray("choices").isEmpty());
        assertTrue(last.getJsonObject("usage").getInt("completion_tokens") > 0);
        assertEquals("/s/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
                sim.account("s").lastRequest().path());
    }

    @Test
    void aWrongSecretGetsBedrocks403AndIsACredentialFailureWithoutTheSecret() {
        sim.account("s").awsCredentials(KEY_ID, SECRET);

        ProviderException failure = completeFails(signed("s", WRONG_SECRET));

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertEquals(403, failure.failure().httpStatus());
        assertEquals("InvalidSignatureException", failure.failure().type());
        assertTrue(failure.getMessage().contains("The request signature we calculated does not match"),
                failure.getMessage());
        String signature = sim.account("s").lastRequest().header("authorization").orElseThrow();
        signature = signature.substring(signature.indexOf("Signature=") + "Signature=".length());
        for (String shown : List.of(failure.getMessage(), failure.failure().toString(), failure.toString())) {
            assertFalse(shown.contains(WRONG_SECRET) || shown.contains(SECRET) || shown.contains(signature), shown);
        }
    }

    @Test
    void anUnknownKeyIdIsACredentialFailure() {
        sim.account("s").awsCredentials("AKIDSOMEONEELSE1", SECRET);

        ProviderException failure = streamFails(signed("s", SECRET));

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertEquals("UnrecognizedClientException", failure.failure().type());
    }

    @Test
    void aSessionTokenIsSignedAndSent() throws Exception {
        sim.account("s").awsCredentials(KEY_ID, SECRET);

        complete(target("s", Map.of("region", "us-east-1", "access-key-id", KEY_ID, "secret-access-key", SECRET,
                "session-token", TOKEN), ""));

        RecordedRequest request = sim.account("s").lastRequest();
        assertEquals(TOKEN, request.header("x-amz-security-token").orElseThrow());
        assertTrue(request.header("authorization").orElseThrow().contains("x-amz-security-token"));
    }

    @Test
    void anApiKeyIsABearerTokenAndNothingIsSigned() throws Exception {
        complete(target("k", Map.of("region", "eu-west-1"), "ABSKbedrockapikey0123"));

        RecordedRequest request = sim.account("k").lastRequest();
        assertEquals("Bearer ABSKbedrockapikey0123", request.header("authorization").orElseThrow());
        assertTrue(request.header("x-amz-date").isEmpty());
    }

    @Test
    void aSecretWithoutItsKeyIdIsRefusedNamingTheKeys() {
        ProviderException failure = completeFails(target("s", Map.of("region", "us-east-1",
                "secret-access-key", SECRET), ""));

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertTrue(failure.getMessage().contains("access-key-id and secret-access-key"), failure.getMessage());
        assertEquals(0, sim.account("s").requestCount());
    }

    @Test
    void aMidStreamThrottlingExceptionIsARateLimit() {
        sim.account("s").enqueue(Behavior.reply("a b c d").streamErrorAfter(2, "throttlingException", null,
                "Too many requests, please wait before trying again."));

        ProviderException failure = streamFails(target("s", Map.of("region", "us-east-1"), "ABSKkey"));

        assertEquals(FailureKind.RATE_LIMIT, failure.failure().kind());
        assertEquals("throttlingException", failure.failure().type());
        assertTrue(failure.getMessage().contains("Too many requests"), failure.getMessage());
    }

    @Test
    void aMidStreamModelStreamErrorIsAServerError() {
        sim.account("s").enqueue(Behavior.reply("a b c d").streamErrorAfter(1, "modelStreamErrorException", null,
                "The model failed."));

        assertEquals(FailureKind.SERVER_ERROR, streamFails(target("s", Map.of("region", "us-east-1"), "ABSKkey"))
                .failure().kind());
    }

    @Test
    void aMalformedEventIsSkipped() throws Exception {
        sim.account("s").enqueue(Behavior.reply("a b").malformedEventAfter(2));

        List<JsonObject> chunks = stream(target("s", Map.of("region", "us-east-1"), "ABSKkey"), false)
                .get(10, TimeUnit.SECONDS);

        assertEquals("stop", chunks.get(chunks.size() - 1).getJsonArray("choices").getJsonObject(0)
                .getString("finish_reason"));
    }

    @Test
    void aStreamedToolCallArrivesAsOpenAiToolCallDeltas() throws Exception {
        sim.account("s").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\",\"unit\":\"celsius\"}"));

        List<JsonObject> chunks = stream(target("s", Map.of("region", "us-east-1"), "ABSKkey"), false)
                .get(10, TimeUnit.SECONDS);

        StringBuilder arguments = new StringBuilder();
        String name = null;
        String finish = null;
        for (JsonObject chunk : chunks) {
            JsonObject choice = chunk.getJsonArray("choices").getJsonObject(0);
            if (!choice.isNull("finish_reason")) {
                finish = choice.getString("finish_reason");
            }
            if (choice.getJsonObject("delta").containsKey("tool_calls")) {
                JsonObject call = choice.getJsonObject("delta").getJsonArray("tool_calls").getJsonObject(0);
                assertEquals(0, call.getInt("index"));
                JsonObject function = call.getJsonObject("function");
                if (function.containsKey("name")) {
                    name = function.getString("name");
                    assertTrue(call.getString("id").startsWith("tooluse_"));
                }
                arguments.append(function.getString("arguments"));
            }
        }
        assertEquals("get_weather", name);
        assertEquals("{\"city\":\"Oslo\",\"unit\":\"celsius\"}", arguments.toString());
        assertEquals("tool_calls", finish);
    }

    @Test
    void bedrocksErrorsAreClassified() {
        ProviderTarget target = target("e", Map.of("region", "us-east-1"), "ABSKkey");
        sim.account("e").enqueue(Behavior.bedrockError(400, "ServiceQuotaExceededException", "quota"),
                Behavior.bedrockError(403, "AccessDeniedException",
                        "You don't have access to the model with the specified model ID."),
                Behavior.bedrockError(408, "ModelTimeoutException", "timed out"),
                Behavior.bedrockError(424, "ModelErrorException", "model error"),
                Behavior.bedrockError(429, "ModelNotReadyException", "not ready"),
                Behavior.contextLengthExceeded(), Behavior.gatewayTimeout(), Behavior.overloaded(),
                Behavior.badGateway());

        assertEquals(FailureKind.RATE_LIMIT, completeFails(target).failure().kind());
        assertEquals(FailureKind.MODEL_NOT_SERVED, completeFails(target).failure().kind());
        assertEquals(FailureKind.TIMEOUT, completeFails(target).failure().kind());
        assertEquals(FailureKind.SERVER_ERROR, completeFails(target).failure().kind());
        assertEquals(FailureKind.SERVER_ERROR, completeFails(target).failure().kind());
        ProviderException tooLong = completeFails(target);
        assertEquals(FailureKind.INVALID_REQUEST, tooLong.failure().kind());
        assertTrue(tooLong.getMessage().contains("Input is too long"), tooLong.getMessage());
        assertEquals(FailureKind.TIMEOUT, completeFails(target).failure().kind());
        assertEquals(FailureKind.SERVER_ERROR, completeFails(target).failure().kind());
        ProviderException html = completeFails(target);
        assertEquals(FailureKind.SERVER_ERROR, html.failure().kind());
        assertEquals(502, html.failure().httpStatus());
    }

    @Test
    void anHttpImageUrlIsRefusedBeforeAnythingIsSent() {
        JsonObject body = Json.createObjectBuilder().add("messages", Json.createArrayBuilder().add(
                Json.createObjectBuilder().add("role", "user").add("content", Json.createArrayBuilder().add(
                        Json.createObjectBuilder().add("type", "image_url").add("image_url",
                                Json.createObjectBuilder().add("url", "https://example.com/cat.png")))))).build();

        ExecutionException e = assertThrows(ExecutionException.class, () -> adapter.complete(
                target("r", Map.of("region", "us-east-1"), "ABSKkey"), body, Duration.ofSeconds(5))
                .get(10, TimeUnit.SECONDS));

        ProviderException failure = assertInstanceOf(ProviderException.class, e.getCause());
        assertEquals(FailureKind.INVALID_REQUEST, failure.failure().kind());
        assertTrue(failure.getMessage().contains("messages[0].content[0].image_url.url"), failure.getMessage());
        assertEquals(0, sim.account("r").requestCount());
    }

    @Test
    void aThrottleCarriesItsRetryAfter() {
        sim.account("e").enqueue(Behavior.rateLimited(Duration.ofSeconds(9)));

        ProviderException failure = completeFails(target("e", Map.of("region", "us-east-1"), "ABSKkey"));

        assertEquals(FailureKind.RATE_LIMIT, failure.failure().kind());
        assertEquals("ThrottlingException", failure.failure().type());
        assertNotNull(failure.failure().retryAfter());
        assertTrue(failure.failure().retryAfter().getSeconds() >= 8);
    }
}
