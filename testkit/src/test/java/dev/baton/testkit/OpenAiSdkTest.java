package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.errors.RateLimitException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the simulator sends on the OpenAI wire, parsed by the official OpenAI Java SDK. */
class OpenAiSdkTest {

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

    private static ChatCompletionCreateParams params() {
        return ChatCompletionCreateParams.builder().model("gpt-4o").addUserMessage("Say hello").build();
    }

    private static ChatCompletion streamed() {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> stream = client().chat().completions().createStreaming(params())) {
            stream.stream().forEach(accumulator::accumulate);
        }
        return accumulator.chatCompletion();
    }

    @Test
    void parsesAJsonCompletion() {
        ChatCompletion completion = client().chat().completions().create(params());

        assertEquals("Hello from a.", completion.choices().get(0).message().content().orElseThrow());
        assertEquals(ChatCompletion.Choice.FinishReason.STOP, completion.choices().get(0).finishReason());
        assertEquals("gpt-4o", completion.model());
        assertEquals(3, completion.usage().orElseThrow().completionTokens());
    }

    @Test
    void accumulatesAStream() {
        sim.account("a").enqueue(Behavior.reply("one two three"));

        ChatCompletion completion = streamed();

        assertEquals("one two three", completion.choices().get(0).message().content().orElseThrow());
        assertEquals(ChatCompletion.Choice.FinishReason.STOP, completion.choices().get(0).finishReason());
    }

    @Test
    void parsesAToolCallInJsonAndInAStream() {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", ARGS), Behavior.toolCall("get_weather", ARGS));

        ChatCompletion json = client().chat().completions().create(params());
        ChatCompletion stream = streamed();

        for (ChatCompletion completion : List.of(json, stream)) {
            ChatCompletion.Choice choice = completion.choices().get(0);
            assertEquals(ChatCompletion.Choice.FinishReason.TOOL_CALLS, choice.finishReason());
            ChatCompletionMessageFunctionToolCall call = choice.message().toolCalls().orElseThrow().get(0).asFunction();
            assertTrue(call.id().startsWith("call_"));
            assertEquals("get_weather", call.function().name());
            assertEquals(ARGS, call.function().arguments());
        }
    }

    @Test
    void errorsBecomeTheSdksExceptionsWithStatusTypeAndCode() {
        sim.account("a").enqueue(Behavior.overloaded(), Behavior.rateLimited(Duration.ofSeconds(1)));

        InternalServerException overloaded = assertThrows(InternalServerException.class,
                () -> client().chat().completions().create(params()));
        RateLimitException limited = assertThrows(RateLimitException.class,
                () -> client().chat().completions().create(params()));

        assertEquals(503, overloaded.statusCode());
        assertEquals("server_is_overloaded", overloaded.code().orElseThrow());
        assertEquals("service_unavailable_error", overloaded.type().orElseThrow());
        assertEquals(429, limited.statusCode());
        assertEquals("rate_limit_exceeded", limited.code().orElseThrow());
        assertEquals(2, sim.account("a").requestCount(), "maxRetries(0): no retries");
    }
}
