package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Responses API over real HTTP: the JSON object, the typed event stream, refusals, errors and stream faults. */
class ResponsesApiTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    private static String body(boolean stream) {
        return "{\"model\":\"gpt-4.1\",\"input\":\"Say hello\",\"instructions\":\"Be brief.\","
                + "\"max_output_tokens\":64" + (stream ? ",\"stream\":true" : "") + "}";
    }

    private static HttpRequest.Builder post(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer sk-test-secret")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> respond(String body) throws Exception {
        return client.send(post(sim.baseUrl("a") + "/responses", body).build());
    }

    private Client.Sse stream() throws Exception {
        return new Client.Sse(client.http.send(post(sim.baseUrl("a") + "/responses", body(true)).build(),
                HttpResponse.BodyHandlers.ofInputStream()));
    }

    @Test
    void aReplyIsAResponseObjectThatEchoesInstructionsAndMaxOutputTokens() throws Exception {
        HttpResponse<String> answer = respond(body(false));

        assertEquals(200, answer.statusCode());
        assertTrue(answer.headers().firstValue("x-request-id").orElseThrow().startsWith("req_"));
        JsonObject response = Client.json(answer.body());
        assertTrue(response.getString("id").startsWith("resp_"));
        assertEquals("response", response.getString("object"));
        assertEquals("completed", response.getString("status"));
        assertEquals("gpt-4.1", response.getString("model"));
        assertEquals("Be brief.", response.getString("instructions"));
        assertEquals(64, response.getInt("max_output_tokens"));
        JsonObject message = response.getJsonArray("output").getJsonObject(0);
        assertEquals("message", message.getString("type"));
        assertTrue(message.getString("id").startsWith("msg_"));
        assertEquals("Hello from a.", message.getJsonArray("content").getJsonObject(0).getString("text"));
        JsonObject usage = response.getJsonObject("usage");
        assertEquals(3, usage.getInt("output_tokens"));
        assertEquals(0, usage.getJsonObject("input_tokens_details").getInt("cached_tokens"));
        assertEquals(0, usage.getJsonObject("output_tokens_details").getInt("reasoning_tokens"));
        assertEquals(usage.getInt("input_tokens") + 3, usage.getInt("total_tokens"));
    }

    @Test
    void aTextThenToolCallIsAMessageItemThenAFunctionCallItem() throws Exception {
        sim.account("a").enqueue(Behavior.reply("Checking.").thenToolCall("get_weather", "{\"city\":\"Oslo\"}"));

        JsonObject response = Client.json(respond(body(false)).body());

        JsonObject call = response.getJsonArray("output").getJsonObject(1);
        assertEquals("function_call", call.getString("type"));
        assertTrue(call.getString("id").startsWith("fc_"));
        assertTrue(call.getString("call_id").startsWith("call_"));
        assertEquals("get_weather", call.getString("name"));
        assertEquals("{\"city\":\"Oslo\"}", call.getString("arguments"));
        assertEquals("Checking.", response.getJsonArray("output").getJsonObject(0).getJsonArray("content")
                .getJsonObject(0).getString("text"));
    }

    @Test
    void aStreamIsTypedEventsNumberedInOrderEndingInResponseCompletedWithoutDone() throws Exception {
        sim.account("a").enqueue(Behavior.reply("one two"));

        try (Client.Sse sse = stream()) {
            assertEquals("text/event-stream", sse.response.headers().firstValue("content-type").orElseThrow());
            Client.Drained drained = sse.drain();

            assertNull(drained.failure());
            assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                    "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
                    "response.output_text.done", "response.content_part.done", "response.output_item.done",
                    "response.completed"), drained.names());
            for (int i = 0; i < drained.events().size(); i++) {
                JsonObject data = Client.json(drained.events().get(i));
                assertEquals(drained.names().get(i), data.getString("type"));
                assertEquals(i, data.getInt("sequence_number"));
            }
            assertEquals(" two", Client.json(drained.events().get(5)).getString("delta"));
            assertEquals("one two", Client.json(drained.events().get(6)).getString("text"));
            JsonObject completed = Client.json(drained.events().get(9)).getJsonObject("response");
            assertEquals("completed", completed.getString("status"));
            assertEquals(2, completed.getJsonObject("usage").getInt("output_tokens"));
            assertEquals("in_progress", Client.json(drained.events().get(0)).getJsonObject("response")
                    .getString("status"));
        }
    }

    @Test
    void aStreamedToolCallSendsArgumentFragmentsThenTheWholeArguments() throws Exception {
        String args = "{\"city\":\"Oslo\",\"unit\":\"celsius\"}";
        sim.account("a").enqueue(Behavior.toolCall("get_weather", args));

        try (Client.Sse sse = stream()) {
            Client.Drained drained = sse.drain();

            assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                    "response.function_call_arguments.delta", "response.function_call_arguments.delta",
                    "response.function_call_arguments.delta", "response.function_call_arguments.done",
                    "response.output_item.done", "response.completed"), drained.names());
            StringBuilder joined = new StringBuilder();
            for (int i = 3; i < 6; i++) {
                joined.append(Client.json(drained.events().get(i)).getString("delta"));
            }
            assertEquals(args, joined.toString());
            JsonObject done = Client.json(drained.events().get(6));
            assertEquals(args, done.getString("arguments"));
            assertEquals("get_weather", done.getString("name"));
            assertEquals("function_call", Client.json(drained.events().get(2)).getJsonObject("item").getString("type"));
        }
    }

    @Test
    void cutAfterTheFirstOutputDeliversTheFirstDeltaThenDropsTheConnection() throws Exception {
        sim.account("a").enqueue(Behavior.ok().cutAfter(5));

        try (Client.Sse sse = stream()) {
            Client.Drained drained = sse.drain();

            assertEquals(5, drained.events().size(), drained.names()::toString);
            assertEquals("response.output_text.delta", drained.names().get(4));
            assertEquals("Hello", Client.json(drained.events().get(4)).getString("delta"));
            assertNotNull(drained.failure(), "an unterminated chunked body must fail the read");
        }
    }

    @Test
    void firstTokenDelayHoldsBackTheFirstDeltaNotTheEventsBeforeIt() throws Exception {
        sim.account("a").enqueue(Behavior.ok().firstTokenDelay(Duration.ofMillis(400)));

        try (Client.Sse sse = stream()) {
            for (int i = 0; i < 4; i++) {
                sse.next();
            }
            long started = System.nanoTime();
            assertEquals("Hello", Client.json(sse.next()).getString("delta"));
            assertTrue(System.nanoTime() - started >= Duration.ofMillis(300).toNanos());
        }
    }

    @Test
    void streamErrorAfterSendsAnErrorEventWithItsSequenceNumberAndNothingAfter() throws Exception {
        sim.account("a").enqueue(Behavior.ok().streamErrorAfter(3, "server_error", null, "The model broke."));

        try (Client.Sse sse = stream()) {
            Client.Drained drained = sse.drain();

            assertEquals(4, drained.events().size());
            assertEquals("error", drained.names().get(3));
            JsonObject error = Client.json(drained.events().get(3));
            assertEquals("error", error.getString("type"));
            assertEquals("server_error", error.getString("code"), "no code: the type stands in");
            assertEquals("The model broke.", error.getString("message"));
            assertTrue(error.isNull("param"));
            assertEquals(3, error.getInt("sequence_number"));
            assertNull(drained.failure());
        }
    }

    @Test
    void withoutDoneLeavesOutResponseCompleted() throws Exception {
        sim.account("a").enqueue(Behavior.ok().withoutDone());

        try (Client.Sse sse = stream()) {
            List<String> names = sse.drain().names();

            assertEquals("response.output_item.done", names.get(names.size() - 1));
            assertFalse(names.contains("response.completed"));
        }
    }

    @Test
    void anErrorStatusIsOpenAisErrorBodyWithRetryHeaders() throws Exception {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofMillis(1500)), Behavior.serverError());

        HttpResponse<String> limited = respond(body(true));
        HttpResponse<String> broken = respond(body(false));

        assertEquals(429, limited.statusCode());
        assertEquals("application/json", limited.headers().firstValue("content-type").orElseThrow());
        assertEquals("2", limited.headers().firstValue("retry-after").orElseThrow());
        assertEquals("1500", limited.headers().firstValue("retry-after-ms").orElseThrow());
        JsonObject error = Client.json(limited.body()).getJsonObject("error");
        assertEquals("rate_limit_exceeded", error.getString("code"));
        assertTrue(error.getString("message").contains("gpt-4.1"), error::toString);
        assertEquals(500, broken.statusCode());
        assertEquals("server_error", Client.json(broken.body()).getJsonObject("error").getString("type"));
    }

    @Test
    void aChatBodyOrOneWithoutInputIsRefusedNamingTheParamWithoutUsingABehaviour() throws Exception {
        sim.account("a").enqueue(Behavior.serverError());

        HttpResponse<String> chat = respond(Client.chatBody("gpt-4.1", false, false));
        HttpResponse<String> noInput = respond("{\"model\":\"gpt-4.1\"}");
        HttpResponse<String> noModel = respond("{\"input\":\"hi\"}");

        for (var answer : List.of(chat, noInput, noModel)) {
            assertEquals(400, answer.statusCode());
            assertEquals("invalid_request_error", Client.json(answer.body()).getJsonObject("error").getString("type"));
        }
        assertEquals("messages", Client.json(chat.body()).getJsonObject("error").getString("param"));
        assertEquals("input", Client.json(noInput.body()).getJsonObject("error").getString("param"));
        assertEquals("model", Client.json(noModel.body()).getJsonObject("error").getString("param"));
        assertEquals(500, respond(body(false)).statusCode(), "the queued behaviour is still there");
        assertEquals(4, sim.account("a").requestCount());
    }

    @Test
    void azuresV1PathAnswersWithTheBodysModelAsTheDeploymentAndIsRecorded() throws Exception {
        String body = "{\"model\":\"my-gpt41-deployment\",\"input\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

        HttpResponse<String> answer = client.send(post(sim.simulator().azureBaseUrl("az") + "/openai/v1/responses", body)
                .header("api-key", "azure-test-key").build());

        assertEquals(200, answer.statusCode());
        assertEquals("my-gpt41-deployment", Client.json(answer.body()).getString("model"));
        RecordedRequest recorded = sim.account("az").lastRequest();
        assertEquals("/az/openai/v1/responses", recorded.path());
        assertEquals(body, recorded.body());
        assertEquals("azure-test-key", recorded.header("api-key").orElseThrow());
    }
}
