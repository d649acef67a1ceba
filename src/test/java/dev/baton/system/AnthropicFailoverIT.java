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

import jakarta.json.JsonObject;

import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;



import org.jboss.shrinkwrap.api.spec.WebArchive;




import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request written for OpenAI, with tools and streaming, answered by an Anthropic account when
 * the OpenAI account fails before the commit point: the official OpenAI SDK assembles a normal
 * tool call and can tell only by the served-by fields. Route {@code mixed}: primary (OpenAI), then
 * claude (Anthropic).
 */
class AnthropicFailoverIT extends ClientSideIT {

    private static final String ROUTE = "mixed";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-mixed-it.war");
    }

    private static ChatCompletionCreateParams weatherQuestion() {
        FunctionParameters parameters = FunctionParameters.builder()
                .putAdditionalProperty("type", JsonValue.from("object"))
                .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                .build();
        return ChatCompletionCreateParams.builder().model(ROUTE)
                .addSystemMessage("Answer with a tool call.")
                .addUserMessage("What is the weather in Oslo?")
                .maxCompletionTokens(200)
                .addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
                        .name("get_weather").description("Weather for a city").parameters(parameters).build()).build())
                .build();
    }

    @Test
    void aStreamedToolCallIsServedByAnthropicWhenOpenAiFailsBeforeTheCommitPoint() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        simulator.account("claude").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));
        OpenAIClient client = gateway.openAi();

        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(weatherQuestion())) {
            stream.stream().forEach(accumulator::accumulate);
        }
        ChatCompletion completion = accumulator.chatCompletion();

        ChatCompletion.Choice choice = completion.choices().get(0);
        assertEquals(ChatCompletion.Choice.FinishReason.TOOL_CALLS, choice.finishReason());
        ChatCompletionMessageFunctionToolCall call = choice.message().toolCalls().orElseThrow().get(0).asFunction();
        assertEquals("get_weather", call.function().name());
        assertTrue(call.function().arguments().contains("Oslo"), call.function().arguments());
        assertEquals("claude-haiku-5-5", completion.model(), "the served model is the only visible difference");

        JsonObject sent = simulator.account("claude").lastRequest().json();
        assertEquals("Answer with a tool call.", sent.getString("system"));
        assertEquals("get_weather", sent.getJsonArray("tools").getJsonObject(0).getString("name"));
        assertEquals(200, sent.getInt("max_tokens"));
    }

    @Test
    void aPlainAnswerFromAnthropicNamesTheProviderThatServed() {
        simulator.account("primary").setDefault(Behavior.serverError());
        OpenAIClient client = gateway.openAi();

        try (HttpResponseFor<ChatCompletion> response = client.chat().completions().withRawResponse()
                .create(ChatCompletionCreateParams.builder().model(ROUTE).addUserMessage("Say hello.").build())) {
            ChatCompletion completion = response.parse();

            assertEquals("Hello from claude.", completion.choices().get(0).message().content().orElseThrow());
            assertEquals("anthropic", completion._additionalProperties().get("provider").convert(String.class));
            assertEquals("claude", completion._additionalProperties().get("connection").convert(String.class));
            List<String> tried = Gateway.attempts(gateway.record(response.headers().values("x-request-id").get(0)));
            assertEquals("claude:200:ok", tried.get(tried.size() - 1), tried::toString);
        }
    }
}
