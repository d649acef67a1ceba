package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.RateLimitException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the simulator sends on the Responses API, parsed by the official OpenAI Java SDK. */
class ResponsesSdkTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static final String ARGS = "{\"city\":\"Oslo\"}";
    private static OpenAIClient client;

    private static OpenAIClient client() {
        if (client == null) {
            client = OpenAIOkHttpClient.builder().baseUrl(sim.baseUrl("a")).apiKey("sk-test").maxRetries(0)
                    .timeout(Duration.ofSeconds(5)).build();
        }
        return client;
    }

    @AfterAll
    static void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    private static ResponseCreateParams params() {
        return ResponseCreateParams.builder().model("gpt-4.1").input("Say hello").instructions("Be brief.")
                .maxOutputTokens(64).build();
    }

    private static Response streamed(List<ResponseStreamEvent> seen) {
        ResponseAccumulator accumulator = ResponseAccumulator.create();
        try (StreamResponse<ResponseStreamEvent> stream = client().responses().createStreaming(params())) {
            stream.stream().forEach(event -> {
                seen.add(event);
                accumulator.accumulate(event);
            });
        }
        return accumulator.response();
    }

    private static String text(Response response) {
        return response.output().get(0).asMessage().content().get(0).asOutputText().text();
    }

    @Test
    void parsesAJsonResponse() {
        Response response = client().responses().create(params());

        assertTrue(response.id().startsWith("resp_"));
        assertEquals("Hello from a.", text(response));
        assertEquals(ResponseStatus.COMPLETED, response.status().orElseThrow());
        assertEquals("Be brief.", response.instructions().orElseThrow().asString());
        assertEquals(64L, response.maxOutputTokens().orElseThrow());
        assertEquals(3, response.usage().orElseThrow().outputTokens());
        assertEquals(0, response.usage().orElseThrow().inputTokensDetails().cachedTokens());
    }

    @Test
    void accumulatesAStreamEventByEvent() {
        sim.account("a").enqueue(Behavior.reply("one two three"));
        List<ResponseStreamEvent> seen = new ArrayList<>();

        Response response = streamed(seen);

        assertEquals("one two three", text(response));
        assertEquals(3, seen.stream().filter(ResponseStreamEvent::isOutputTextDelta).count());
        assertTrue(seen.get(0).isCreated());
        assertTrue(seen.get(seen.size() - 1).isCompleted());
        assertEquals(3, response.usage().orElseThrow().outputTokens());
    }

    @Test
    void parsesAFunctionCallInJsonAndInAStream() {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", ARGS), Behavior.toolCall("get_weather", ARGS));

        Response json = client().responses().create(params());
        List<ResponseStreamEvent> seen = new ArrayList<>();
        Response stream = streamed(seen);

        for (Response response : List.of(json, stream)) {
            List<ResponseOutputItem> output = response.output();
            assertEquals(1, output.size());
            ResponseFunctionToolCall call = output.get(0).asFunctionCall();
            assertTrue(call.callId().startsWith("call_"));
            assertTrue(call.id().orElseThrow().startsWith("fc_"));
            assertEquals("get_weather", call.name());
            assertEquals(ARGS, call.arguments());
        }
        StringBuilder deltas = new StringBuilder();
        seen.stream().filter(ResponseStreamEvent::isFunctionCallArgumentsDelta)
                .forEach(e -> deltas.append(e.asFunctionCallArgumentsDelta().delta()));
        assertEquals(ARGS, deltas.toString());
    }

    @Test
    void anErrorEventInTheStreamParsesAsTheSdksErrorEvent() {
        sim.account("a").enqueue(Behavior.ok().streamErrorAfter(2, "server_error", "overloaded", "Try later."));
        List<ResponseStreamEvent> seen = new ArrayList<>();

        try (StreamResponse<ResponseStreamEvent> stream = client().responses().createStreaming(params())) {
            stream.stream().forEach(seen::add);
        } catch (RuntimeException e) {
            // the SDK may raise the error event as well; what it parsed before is what this test checks
        }

        assertEquals(3, seen.size(), seen::toString);
        var error = seen.get(2).asError();
        assertEquals("overloaded", error.code().orElseThrow());
        assertEquals("Try later.", error.message());
        assertEquals(2, error.sequenceNumber());
    }

    @Test
    void errorsBecomeTheSdksExceptions() {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(1)));

        RateLimitException limited = assertThrows(RateLimitException.class,
                () -> client().responses().create(params()));
        BadRequestException refused = assertThrows(BadRequestException.class, () -> client().responses().create(
                ResponseCreateParams.builder().model("gpt-4.1").build()));

        assertEquals("rate_limit_exceeded", limited.code().orElseThrow());
        assertEquals("input", refused.param().orElseThrow());
    }
}
