package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.InternalServerException;
import com.anthropic.errors.OverloadedException;
import com.anthropic.errors.RateLimitException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.ErrorType;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.ToolUseBlock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the simulator sends on the Anthropic wire, parsed by the official Anthropic Java SDK. */
class AnthropicSdkTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static final String ARGS = "{\"city\":\"Oslo\",\"days\":3}";
    private static AnthropicClient client;

    private static AnthropicClient client() {
        if (client == null) {
            client = AnthropicOkHttpClient.builder().baseUrl(sim.anthropicBaseUrl("a")).apiKey("sk-ant-test")
                    .maxRetries(0).timeout(Duration.ofSeconds(5)).build();
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

    private static MessageCreateParams params() {
        return MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(1024).addUserMessage("Say hello")
                .build();
    }

    private static Message streamed() {
        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> stream = client().messages().createStreaming(params())) {
            stream.stream().forEach(accumulator::accumulate);
        }
        return accumulator.message();
    }

    @Test
    void parsesAJsonMessageAndSendsTheSdkHeaders() {
        Message message = client().messages().create(params());

        assertEquals("Hello from a.", message.content().get(0).text().orElseThrow().text());
        assertEquals(StopReason.END_TURN, message.stopReason().orElseThrow());
        assertEquals("claude-sonnet-4-5", message.model().asString());
        assertEquals(3, message.usage().outputTokens());
        RecordedRequest request = sim.account("a").lastRequest();
        assertEquals("/a/v1/messages", request.path());
        // anthropic-java 3.14.0 sends the key given to apiKey(...) as "Authorization: Bearer", not x-api-key
        assertEquals("sk-ant-test", request.header("x-api-key")
                .or(() -> request.header("authorization").map(v -> v.replaceFirst("^Bearer ", ""))).orElseThrow());
        assertTrue(request.header("anthropic-version").isPresent());
    }

    @Test
    void accumulatesAStream() {
        sim.account("a").enqueue(Behavior.reply("one two three"));

        Message message = streamed();

        assertEquals("one two three", message.content().get(0).text().orElseThrow().text());
        assertEquals(StopReason.END_TURN, message.stopReason().orElseThrow());
        assertEquals(3, message.usage().outputTokens());
    }

    @Test
    void parsesAToolUseInJsonAndInAStream() {
        Behavior tool = Behavior.toolCall("get_weather", ARGS);
        sim.account("a").enqueue(tool, tool, Behavior.reply("Checking.").thenToolCall("get_weather", ARGS));

        Message json = client().messages().create(params());
        Message stream = streamed();
        Message textThenTool = streamed();

        for (Message message : List.of(json, stream)) {
            assertEquals(StopReason.TOOL_USE, message.stopReason().orElseThrow());
            ToolUseBlock use = message.content().get(0).toolUse().orElseThrow();
            assertTrue(use.id().startsWith("toolu_"));
            assertEquals("get_weather", use.name());
            assertEquals(Map.of("city", "Oslo", "days", 3), use._input().convert(Map.class));
        }
        assertEquals("Checking.", textThenTool.content().get(0).text().orElseThrow().text());
        assertEquals("get_weather", textThenTool.content().get(1).toolUse().orElseThrow().name());
    }

    @Test
    void overloadedIs529AndTheSdksOverloadedException() {
        sim.account("a").enqueue(Behavior.overloaded());

        InternalServerException e = assertThrows(InternalServerException.class,
                () -> client().messages().create(params()));

        assertTrue(e instanceof OverloadedException, e.getClass().getName());
        assertEquals(529, e.statusCode());
        assertEquals(ErrorType.OVERLOADED_ERROR, e.errorType().orElseThrow());
        assertTrue(e.requestId().orElseThrow().startsWith("req_"));
        assertEquals(1, sim.account("a").requestCount(), "maxRetries(0): no retries");
    }

    @Test
    void enforcedSpendLimitIsARateLimitWithItsErrorCodeAndNoRetryAfter() {
        sim.account("a").enqueue(Behavior.enforcedSpendLimit());

        RateLimitException e = assertThrows(RateLimitException.class, () -> client().messages().create(params()));

        assertEquals(429, e.statusCode());
        assertEquals("enforced_spend_limit_reached", e.errorCode().orElseThrow());
        assertFalse(e.headers().names().contains("retry-after"));
    }

    @Test
    void anErrorEventMidStreamIsRaisedByTheSdk() {
        sim.account("a").enqueue(Behavior.reply("one two three")
                .streamErrorAfter(4, "overloaded_error", null, "Overloaded"));
        MessageAccumulator accumulator = MessageAccumulator.create();

        AnthropicServiceException e = assertThrows(AnthropicServiceException.class, () -> {
            try (StreamResponse<RawMessageStreamEvent> stream = client().messages().createStreaming(params())) {
                stream.stream().forEach(accumulator::accumulate);
            }
        });

        assertTrue(String.valueOf(e.getMessage()).contains("Overloaded")
                || e.body().toString().contains("overloaded_error"), e::toString);
    }
}
