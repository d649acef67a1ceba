package dev.baton.langchain4j;

import dev.baton.ServedBy;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.baton.langchain4j.BatonRequestsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Baton answer → LangChain4j response, as a golden table: each row is the OpenAI-shaped body Baton
 * returns (whichever provider served) and the AI message, finish reason and token usage LangChain4j
 * gets; every row also carries Baton's served-by and request id in the metadata.
 */
class BatonResponsesTest {

    private static final ServedBy SERVED = new ServedBy("claude-haiku-5-5", "anthropic", "claude", "standby_a", "mixed");

    static Stream<Arguments> golden() {
        return Stream.of(
                Arguments.of("a text answer", """
                        {"id":"chatcmpl-1","object":"chat.completion","model":"claude-haiku-5-5","choices":[
                          {"index":0,"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],
                         "usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}
                        """, AiMessage.from("Hello."), FinishReason.STOP, new TokenUsage(12, 3, 15)),
                Arguments.of("two tool calls, no text", """
                        {"id":"chatcmpl-2","choices":[{"index":0,"message":{"role":"assistant","content":null,
                          "tool_calls":[
                            {"id":"call_a","type":"function","function":{"name":"weather","arguments":"{\\"city\\":\\"Oslo\\"}"}},
                            {"id":"call_b","type":"function","function":{"name":"time","arguments":"{}"}}]},
                          "finish_reason":"tool_calls"}],
                         "usage":{"prompt_tokens":40,"completion_tokens":20,"total_tokens":60}}
                        """, AiMessage.from(List.of(
                                ToolExecutionRequest.builder().id("call_a").name("weather").arguments("{\"city\":\"Oslo\"}").build(),
                                ToolExecutionRequest.builder().id("call_b").name("time").arguments("{}").build())),
                        FinishReason.TOOL_EXECUTION, new TokenUsage(40, 20, 60)),
                Arguments.of("text, then a tool call", """
                        {"id":"chatcmpl-3","choices":[{"index":0,"message":{"role":"assistant","content":"Checking.",
                          "tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"weather","arguments":"{}"}}]},
                          "finish_reason":"tool_calls"}]}
                        """, AiMessage.from("Checking.", List.of(
                                ToolExecutionRequest.builder().id("toolu_1").name("weather").arguments("{}").build())),
                        FinishReason.TOOL_EXECUTION, null),
                Arguments.of("cut at the token limit", """
                        {"id":"chatcmpl-4","choices":[{"index":0,"message":{"role":"assistant","content":"Once upon"},
                          "finish_reason":"length"}]}
                        """, AiMessage.from("Once upon"), FinishReason.LENGTH, null),
                Arguments.of("a content filter", """
                        {"id":"chatcmpl-5","choices":[{"index":0,"message":{"role":"assistant","content":""},
                          "finish_reason":"content_filter"}]}
                        """, AiMessage.from(""), FinishReason.CONTENT_FILTER, null),
                Arguments.of("reasoning is the thinking", """
                        {"id":"chatcmpl-6","choices":[{"index":0,"message":{"role":"assistant","content":"42",
                          "reasoning_content":"Six times seven."},"finish_reason":"stop"}]}
                        """, AiMessage.builder().text("42").thinking("Six times seven.").build(), FinishReason.STOP, null),
                Arguments.of("a refusal is an attribute", """
                        {"id":"chatcmpl-7","choices":[{"index":0,"message":{"role":"assistant","content":null,
                          "refusal":"I can't help with that."},"finish_reason":"stop"}]}
                        """, AiMessage.builder().attributes(Map.of("refusal", "I can't help with that.")).build(),
                        FinishReason.STOP, null),
                Arguments.of("an unknown finish reason", """
                        {"id":"chatcmpl-8","choices":[{"index":0,"message":{"role":"assistant","content":"x"},
                          "finish_reason":"pause_turn"}]}
                        """, AiMessage.from("x"), FinishReason.OTHER, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void mapsTheAnswer(String name, String body, AiMessage message, FinishReason finishReason, TokenUsage usage) {
        ChatResponse response = BatonResponses.fromBaton(new dev.baton.ChatResponse(parse(body), SERVED, "req_42", null, null));

        assertEquals(message, response.aiMessage());
        assertEquals(finishReason, response.finishReason());
        assertEquals(usage, response.tokenUsage());
        assertEquals(parse(body).getString("id"), response.id());
        assertEquals("claude-haiku-5-5", response.modelName(), "the model that served");
        BatonResponseMetadata metadata = assertInstanceOf(BatonResponseMetadata.class, response.metadata());
        assertEquals(SERVED, metadata.servedBy().orElseThrow());
        assertEquals("req_42", metadata.requestId());
        assertFalse(metadata.degraded());
    }
}
