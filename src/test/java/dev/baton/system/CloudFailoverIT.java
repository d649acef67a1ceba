package dev.baton.system;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulator;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Claude by vendor id ({@code anthropic/claude-sonnet-4-5}) from an Anthropic account, else from Amazon Bedrock, else
 * from Google Vertex AI, as the seeds' failover example has it, called with the official OpenAI SDK: the caller sees
 * one model and a normal stream, tool calls included, and only the served-by fields say which cloud answered. The
 * optional modules {@code baton-bedrock} and {@code baton-vertex} are added to the sample's WAR as an application adds
 * them; each cloud's simulator checks the credentials the way the cloud does (SigV4 signatures, OAuth tokens issued
 * for a service-account key).
 */
class CloudFailoverIT extends ClientSideIT {

    private static final String ANTHROPIC = "anthropic-prod";
    private static final String BEDROCK = "bedrock-standby";
    private static final String VERTEX = "vertex-standby";

    /**
     * Starts the simulator before the deployment, so that the service-account key written into it is the simulator's
     * own and the deployed Vertex connection can get its first token at once.
     */
    @Deployment(testable = false)
    static WebArchive deployment() {
        if (simulator == null) {
            simulator = ProviderSimulator.start(Ports.simulator());
        }
        Path key;
        try {
            key = simulator.google().writeServiceAccountKey(Files.createTempFile("baton-it-vertex-key", ".json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        key.toFile().deleteOnExit();
        return Deployments.withCloudModules(Deployments.sample("baton-it-clouds.war"))
                .addClasses(CloudsConfig.class, DeploymentConfig.class, Ports.class)
                .addAsServiceProvider(ConfigSource.class, CloudsConfig.class)
                .addAsResource(new StringAsset(CloudsConfig.KEY_FILE + "=" + key.toAbsolutePath() + "\n"),
                        CloudsConfig.RESOURCE);
    }

    @BeforeEach
    void bedrockChecksSignatures() {
        for (String account : List.of(BEDROCK, "bedrock-wrong")) {
            simulator.account(account).awsCredentials(CloudsConfig.ACCESS_KEY_ID, CloudsConfig.SECRET_ACCESS_KEY);
        }
    }

    @AfterEach
    void backInRotation() {
        gateway.restoreConnections(ANTHROPIC, BEDROCK, VERTEX, "bedrock-wrong");
    }

    private static ChatCompletionCreateParams weatherQuestion() {
        FunctionParameters parameters = FunctionParameters.builder()
                .putAdditionalProperty("type", JsonValue.from("object"))
                .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                .build();
        return ChatCompletionCreateParams.builder().model(CloudsConfig.MODEL)
                .addSystemMessage("Answer with a tool call.")
                .addUserMessage("What is the weather in Oslo?")
                .maxCompletionTokens(200)
                .addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
                        .name("get_weather").description("Weather for a city").parameters(parameters).build()).build())
                .build();
    }

    /** What a streamed answer came to, and who served it (the served-by headers). */
    private record Streamed(ChatCompletion completion, String provider, String connection, String model,
                            String requestId) {
    }

    private Streamed stream(ChatCompletionCreateParams params) {
        OpenAIClient client = gateway.openAi();
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (HttpResponseFor<StreamResponse<ChatCompletionChunk>> response =
                     client.chat().completions().withRawResponse().createStreaming(params)) {
            try (StreamResponse<ChatCompletionChunk> chunks = response.parse()) {
                chunks.stream().forEach(accumulator::accumulate);
            }
            var headers = response.headers();
            return new Streamed(accumulator.chatCompletion(), headers.values("x-baton-provider").get(0),
                    headers.values("x-baton-connection").get(0), headers.values("x-baton-model").get(0),
                    headers.values("x-request-id").get(0));
        }
    }

    private static void assertWeatherToolCall(ChatCompletion completion) {
        ChatCompletion.Choice choice = completion.choices().get(0);
        assertEquals(ChatCompletion.Choice.FinishReason.TOOL_CALLS, choice.finishReason());
        ChatCompletionMessageFunctionToolCall call = choice.message().toolCalls().orElseThrow().get(0).asFunction();
        assertEquals("get_weather", call.function().name());
        assertTrue(call.function().arguments().contains("Oslo"), call.function().arguments());
    }

    /** The attempts of a record, each as {@code provider/connection:kind}. */
    private List<String> attempts(String requestId) {
        JsonObject record = gateway.record(requestId);
        return record.getJsonArray("attempts").stream().map(jakarta.json.JsonValue::asJsonObject)
                .map(a -> a.getString("provider") + "/" + a.getString("connection") + ":"
                        + (Gateway.text(a, "kind") == null ? "ok" : Gateway.text(a, "kind")))
                .toList();
    }

    @Test
    void claudeStreamsFromTheAnthropicAccountWhileItIsWell() {
        simulator.account(ANTHROPIC).enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        Streamed answer = stream(weatherQuestion());

        assertWeatherToolCall(answer.completion());
        assertEquals("anthropic", answer.provider());
        assertEquals(CloudsConfig.MODEL, answer.model());
        assertEquals("claude-sonnet-4-5", simulator.account(ANTHROPIC).lastRequest().json().getString("model"));
        assertEquals(0, simulator.account(BEDROCK).requestCount() + simulator.account(VERTEX).requestCount());
    }

    /** How the Anthropic account fails before its first output event. */
    static Stream<Arguments> anthropicFailures() {
        return Stream.of(
                Arguments.of("529 overloaded", Behavior.overloaded(), "server_error"),
                Arguments.of("429 rate limited", Behavior.rateLimited(Duration.ofSeconds(1)), "rate_limit"),
                Arguments.of("500", Behavior.serverError(), "server_error"),
                Arguments.of("stall before the first token", Behavior.ok().firstTokenDelay(Duration.ofSeconds(10)),
                        "timeout"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("anthropicFailures")
    void withTheAnthropicAccountFailingTheSameStreamComesFromBedrock(String name, Behavior failure, String kind) {
        simulator.account(ANTHROPIC).setDefault(failure);
        simulator.account(BEDROCK).enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        Streamed answer = stream(weatherQuestion());

        assertWeatherToolCall(answer.completion());
        assertEquals("bedrock", answer.provider());
        assertEquals(BEDROCK, answer.connection());
        assertEquals(CloudsConfig.MODEL, answer.model());
        String path = simulator.account(BEDROCK).lastRequest().path();
        assertTrue(path.endsWith("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream"), path);
        assertEquals(CloudsConfig.MODEL, gateway.record(answer.requestId()).getString("model"), "the record's model");
        List<String> tried = attempts(answer.requestId());
        assertEquals("anthropic/" + ANTHROPIC + ":" + kind, tried.get(0), tried::toString);
        assertEquals("bedrock/" + BEDROCK + ":ok", tried.get(tried.size() - 1), tried::toString);
    }

    @Test
    void withAnthropicAndBedrockFailingTheStreamComesFromVertexAi() {
        simulator.account(ANTHROPIC).setDefault(Behavior.overloaded());
        simulator.account(BEDROCK).setDefault(Behavior.serverError());
        simulator.account(VERTEX).enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        Streamed answer = stream(weatherQuestion());

        assertWeatherToolCall(answer.completion());
        assertEquals("vertex", answer.provider());
        assertEquals(VERTEX, answer.connection());
        String path = simulator.account(VERTEX).lastRequest().path();
        assertTrue(path.endsWith("/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict"), path);
        List<String> tried = attempts(answer.requestId());
        assertEquals("anthropic/" + ANTHROPIC, tried.get(0).split(":")[0], tried::toString);
        assertTrue(tried.stream().anyMatch(a -> a.startsWith("bedrock/" + BEDROCK + ":server_error")), tried::toString);
        assertEquals("vertex/" + VERTEX + ":ok", tried.get(tried.size() - 1), tried::toString);
    }

    @Test
    void anExpiredGoogleTokenIsACredentialFailureAndNoTokenIsShown() throws IOException {
        simulator.account(ANTHROPIC).setDefault(Behavior.overloaded());
        simulator.account(BEDROCK).setDefault(Behavior.serverError());
        assertEquals("vertex", stream(weatherQuestion()).provider(), "the Vertex connection holds a token");
        String token = simulator.google().lastIssuedToken();
        simulator.google().expireTokens();

        HttpResponse<String> failed = gateway.send(HttpRequest.newBuilder(gateway.uri("v1/chat/completions"))
                .timeout(Gateway.TIMEOUT).header("Authorization", "Bearer " + Gateway.KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"" + CloudsConfig.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertTrue(failed.statusCode() >= 500, failed::body);
        String requestId = failed.headers().firstValue("x-request-id").orElseThrow();
        List<String> tried = attempts(requestId);
        assertEquals("vertex/" + VERTEX + ":credential", tried.get(tried.size() - 1), tried::toString);
        assertTrue(token != null && !token.isEmpty(), "the simulator issued a token");
        for (String text : List.of(failed.body(), gateway.record(requestId, Gateway.ADMIN_KEY).toString(),
                gateway.admin("v1/connections/" + VERTEX).toString(), ServerLog.read())) {
            assertFalse(text.contains(token), text);
        }
    }

    @Test
    void aJsonAnswerNamesTheVendorIdAndTheCloudThatServed() {
        simulator.account(ANTHROPIC).setDefault(Behavior.serverError());
        OpenAIClient client = gateway.openAi();

        ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(CloudsConfig.MODEL).addUserMessage("Say hello.").build());

        assertEquals("Hello from " + BEDROCK + ".", completion.choices().get(0).message().content().orElseThrow());
        assertEquals(CloudsConfig.MODEL, completion.model());
        assertEquals("bedrock", completion._additionalProperties().get("provider").convert(String.class));
        assertEquals(BEDROCK, completion._additionalProperties().get("connection").convert(String.class));
    }

    @Test
    void fallbacksAndModelsWrittenAsTheSeedsWriteThemWork() {
        simulator.account("primary").setDefault(Behavior.serverError());
        String body = "{\"model\":\"openai/gpt-5.4-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],"
                + "\"fallbacks\":[\"" + CloudsConfig.MODEL + "\"]}";

        HttpResponse<String> response = gateway.send(HttpRequest.newBuilder(gateway.uri("v1/chat/completions"))
                .timeout(Gateway.TIMEOUT).header("Authorization", "Bearer " + Gateway.KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode(), response::body);
        JsonObject answer = Gateway.json(response.body());
        assertEquals(CloudsConfig.MODEL, answer.getString("model"), "served by the fallback");
        assertEquals(ANTHROPIC, answer.getString("connection"));
        assertEquals("gpt-5.4-mini", simulator.account("primary").lastRequest().json().getString("model"));
    }

    @Test
    void aVendorNoConnectionServesIs503NoProviderConnected() {
        HttpResponse<String> response = gateway.send(HttpRequest.newBuilder(gateway.uri("v1/chat/completions"))
                .timeout(Gateway.TIMEOUT).header("Authorization", "Bearer " + Gateway.KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"moonshot/kimi-k2.6\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(503, response.statusCode(), response::body);
        assertEquals("no_provider_connected", Gateway.json(response.body()).getJsonObject("error").getString("code"));
    }

    @Test
    void aWrongSignatureIsACredentialFailureThatEjectsAtOnceAndLeaksNothing() throws IOException {
        Streamed answer = stream(ChatCompletionCreateParams.builder().model(CloudsConfig.WRONG_SIGNATURE_ROUTE)
                .addUserMessage("Say hello.").build());

        assertEquals(ANTHROPIC, answer.connection());
        List<String> tried = attempts(answer.requestId());
        assertEquals("bedrock/bedrock-wrong:credential", tried.get(0), tried::toString);
        JsonObject wrong = gateway.admin("v1/connections/bedrock-wrong");
        assertEquals("ejected", wrong.getString("state"), () -> "one credential failure ejects (default): " + wrong);
        String record = gateway.record(answer.requestId(), Gateway.ADMIN_KEY).toString();
        String log = ServerLog.read();
        for (String text : List.of(record, wrong.toString(), gateway.admin("v1/records").toString(), log)) {
            assertFalse(text.contains(CloudsConfig.WRONG_SECRET_ACCESS_KEY), text);
            assertFalse(text.contains(CloudsConfig.SECRET_ACCESS_KEY), text);
            assertFalse(text.contains("Signature="), text);
        }
    }
}
