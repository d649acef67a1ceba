package dev.baton.system;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseStreamEvent;
import dev.baton.testkit.Behavior;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Responses API and embeddings through the sample, with the official OpenAI Java SDK: {@code responses.create}
 * (JSON and streamed, with a function call) served after failover from the primary OpenAI account to the standby
 * account (route {@code demo}) and, translated, to the Anthropic account (route {@code mixed}); a stream cut after its
 * first output ends in the SDK's error; embeddings served after failover between the two accounts, the same bytes as
 * the account's direct answer.
 */
class ResponsesAndEmbeddingsIT extends ClientSideIT {

    private static final String EMBEDDING_MODEL = "text-embedding-3-small";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-responses-it.war");
    }

    /** Earlier tests' failures may have parked or ejected an account: every test starts with all three in rotation. */
    @BeforeEach
    void allAccountsInRotation() {
        gateway.restoreConnections("primary", "standby", "claude");
    }

    private static ResponseCreateParams weatherQuestion(String route) {
        FunctionTool tool = FunctionTool.builder().name("get_weather").description("Weather for a city")
                .parameters(FunctionTool.Parameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .build())
                .strict(false).build();
        return ResponseCreateParams.builder().model(route).instructions("Answer with a tool call.")
                .input("What is the weather in Oslo?").maxOutputTokens(200).addTool(tool).build();
    }

    private static ResponseFunctionToolCall onlyCall(Response response) {
        return response.output().stream().filter(i -> i.isFunctionCall()).findFirst().orElseThrow().asFunctionCall();
    }

    private static String servedBy(Response response) {
        return response._additionalProperties().get("connection").convert(String.class);
    }

    @Test
    void aResponseWithAFunctionCallIsServedByTheStandbyAccountWhenThePrimaryIsOverloaded() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        simulator.account("standby").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        try (HttpResponseFor<Response> raw = gateway.openAi().responses().withRawResponse()
                .create(weatherQuestion("demo"))) {
            Response response = raw.parse();

            ResponseFunctionToolCall call = onlyCall(response);
            assertEquals("get_weather", call.name());
            assertTrue(call.arguments().contains("Oslo"), call.arguments());
            assertEquals("standby", servedBy(response));
            assertEquals("standby", raw.headers().values("x-baton-connection").get(0));
            List<String> tried = Gateway.attempts(gateway.record(raw.headers().values("x-request-id").get(0)));
            assertEquals("standby:200:ok", tried.get(tried.size() - 1), tried::toString);
        }
        assertTrue(simulator.account("standby").lastRequest().path().endsWith("/v1/responses"),
                "sent to the standby account as a Responses request");
    }

    @Test
    void aStreamedFunctionCallIsServedByTheStandbyAccount() {
        simulator.account("primary").setDefault(Behavior.serverError());
        simulator.account("standby").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        List<ResponseStreamEvent> events = streamed(gateway.openAi(), weatherQuestion("demo"));

        assertTrue(events.stream().anyMatch(ResponseStreamEvent::isFunctionCallArgumentsDelta));
        Response completed = events.get(events.size() - 1).asCompleted().response();
        assertEquals("get_weather", onlyCall(completed).name());
        assertTrue(onlyCall(completed).arguments().contains("Oslo"));
    }

    @Test
    void aResponseIsTranslatedForTheAnthropicAccountJsonAndStreamed() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        simulator.account("claude").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"),
                Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        Response response = gateway.openAi().responses().create(weatherQuestion("mixed"));
        assertEquals("claude", servedBy(response));
        assertEquals("get_weather", onlyCall(response).name());
        JsonObject sent = simulator.account("claude").lastRequest().json();
        assertEquals("Answer with a tool call.", sent.getString("system"), "instructions are Anthropic's system prompt");
        assertEquals(200, sent.getInt("max_tokens"));

        List<ResponseStreamEvent> events = streamed(gateway.openAi(), weatherQuestion("mixed"));
        Response completed = events.get(events.size() - 1).asCompleted().response();
        assertTrue(onlyCall(completed).arguments().contains("Oslo"), onlyCall(completed).arguments());
        assertTrue(events.stream().anyMatch(ResponseStreamEvent::isFunctionCallArgumentsDelta));
    }

    @Test
    void aStreamCutAfterItsFirstOutputEndsInTheSdksErrorNeverACompletedResponse() {
        simulator.account("primary").setDefault(Behavior.reply("one two three four five six seven").cutAfter(6));
        List<ResponseStreamEvent> seen = new ArrayList<>();

        assertThrows(OpenAIException.class, () -> {
            try (StreamResponse<ResponseStreamEvent> stream = gateway.openAi().responses()
                    .createStreaming(ResponseCreateParams.builder().model("demo").input("Count.").build())) {
                stream.stream().forEach(seen::add);
            }
        });
        assertTrue(seen.stream().anyMatch(ResponseStreamEvent::isOutputTextDelta), "output had reached the caller");
        assertFalse(seen.stream().anyMatch(ResponseStreamEvent::isCompleted), "never a completed response");
        assertEquals(0, simulator.account("standby").requestCount(), "nothing is restarted after the commit point");
    }

    @Test
    void embeddingsFailOverBetweenTheTwoAccountsByteForByte() {
        simulator.account("primary").setDefault(Behavior.serverError());
        EmbeddingCreateParams params = EmbeddingCreateParams.builder().model(EMBEDDING_MODEL)
                .input("The quick brown fox.").build();

        CreateEmbeddingResponse viaBaton = gateway.openAi().embeddings().create(params);
        simulator.account("primary").setDefault(Behavior.ok());
        OpenAIClient direct = OpenAIOkHttpClient.builder().baseUrl(simulator.baseUrl("standby"))
                .apiKey("unused").maxRetries(0).build();
        try {
            CreateEmbeddingResponse straight = direct.embeddings().create(params);
            assertEquals(straight.data().get(0).embedding(), viaBaton.data().get(0).embedding());
        } finally {
            direct.close();
        }

        simulator.account("primary").setDefault(Behavior.serverError());
        for (String format : List.of("float", "base64")) {
            String body = Json.createObjectBuilder().add("model", EMBEDDING_MODEL)
                    .add("input", Json.createArrayBuilder().add("first").add("second"))
                    .add("encoding_format", format).build().toString();
            HttpResponse<String> baton = post(gateway.uri("v1/embeddings"), body, "Bearer " + Gateway.KEY);
            assertEquals(200, baton.statusCode(), baton::body);
            assertEquals("standby", Gateway.header(baton, "x-baton-connection"));
            HttpResponse<String> straight = post(URI.create(simulator.baseUrl("standby") + "/embeddings"), body, null);
            assertEquals(data(straight.body()), data(baton.body()), format + ": the same bytes as the direct answer");
        }
    }

    @Test
    void embeddingsRefuseFallbacksToAnotherModel() {
        String body = Json.createObjectBuilder().add("model", EMBEDDING_MODEL).add("input", "x")
                .add("fallbacks", Json.createArrayBuilder().add("gpt-5.4-mini")).build().toString();

        HttpResponse<String> response = post(gateway.uri("v1/embeddings"), body, "Bearer " + Gateway.KEY);

        assertEquals(400, response.statusCode(), response::body);
        assertTrue(response.body().contains("do not mix"), response.body());
        assertEquals(0, simulator.account("primary").requestCount());
    }

    private static List<ResponseStreamEvent> streamed(OpenAIClient client, ResponseCreateParams params) {
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(params)) {
            return stream.stream().toList();
        }
    }

    /** The text of the {@code data} array exactly as it is in the body: no parse, no re-encoding. */
    private static String data(String body) {
        int start = body.indexOf('[', body.indexOf("\"data\""));
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < body.length(); i++) {
            char c = body.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return body.substring(start, i + 1);
            }
        }
        throw new AssertionError("no data array in " + body);
    }

    private HttpResponse<String> post(URI uri, String body, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Gateway.TIMEOUT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return gateway.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
