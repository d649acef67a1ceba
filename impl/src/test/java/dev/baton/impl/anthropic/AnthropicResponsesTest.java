package dev.baton.impl.anthropic;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.baton.impl.anthropic.TestJson.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The response translation table of docs/providers.md: an Anthropic Message in, an OpenAI chat.completion out. */
class AnthropicResponsesTest {

    static Stream<Arguments> responses() {
        return Stream.of(
                arguments("a text answer becomes content with finish_reason stop and usage", """
                        {"id":"msg_1","type":"message","role":"assistant","model":"claude-x",
                         "content":[{"type":"text","text":"Hello!"}],"stop_reason":"end_turn","stop_sequence":null,
                         "usage":{"input_tokens":12,"output_tokens":3}}""", """
                        {"id":"msg_1","object":"chat.completion","created":0,"model":"claude-x",
                         "choices":[{"index":0,"message":{"role":"assistant","content":"Hello!"},"logprobs":null,"finish_reason":"stop"}],
                         "usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":0}}}"""),
                arguments("text blocks are joined into one content", """
                        {"id":"msg_2","model":"claude-x","content":[{"type":"text","text":"Hel"},{"type":"text","text":"lo"}],
                         "stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}""", """
                        {"id":"msg_2","object":"chat.completion","created":0,"model":"claude-x",
                         "choices":[{"index":0,"message":{"role":"assistant","content":"Hello"},"logprobs":null,"finish_reason":"stop"}],
                         "usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2,"prompt_tokens_details":{"cached_tokens":0}}}"""),
                arguments("tool_use blocks alone become tool_calls with null content and finish_reason tool_calls", """
                        {"id":"msg_3","model":"claude-x","stop_reason":"tool_use","usage":{"input_tokens":20,"output_tokens":9},
                         "content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}},
                                    {"type":"tool_use","id":"toolu_2","name":"now","input":{}}]}""", """
                        {"id":"msg_3","object":"chat.completion","created":0,"model":"claude-x",
                         "choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
                           {"id":"toolu_1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Oslo\\"}"}},
                           {"id":"toolu_2","type":"function","function":{"name":"now","arguments":"{}"}}]},
                           "logprobs":null,"finish_reason":"tool_calls"}],
                         "usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29,"prompt_tokens_details":{"cached_tokens":0}}}"""),
                arguments("text before a tool call is kept as content beside tool_calls", """
                        {"id":"msg_4","model":"claude-x","stop_reason":"tool_use","usage":{"input_tokens":2,"output_tokens":2},
                         "content":[{"type":"text","text":"Let me check."},
                                    {"type":"tool_use","id":"toolu_1","name":"now","input":{}}]}""", """
                        {"id":"msg_4","object":"chat.completion","created":0,"model":"claude-x",
                         "choices":[{"index":0,"message":{"role":"assistant","content":"Let me check.","tool_calls":[
                           {"id":"toolu_1","type":"function","function":{"name":"now","arguments":"{}"}}]},
                           "logprobs":null,"finish_reason":"tool_calls"}],
                         "usage":{"prompt_tokens":2,"completion_tokens":2,"total_tokens":4,"prompt_tokens_details":{"cached_tokens":0}}}"""),
                arguments("thinking becomes reasoning_content and redacted thinking is left out", """
                        {"id":"msg_5","model":"claude-x","stop_reason":"end_turn","usage":{"input_tokens":2,"output_tokens":5},
                         "content":[{"type":"thinking","thinking":"Two plus two…","signature":"sig"},
                                    {"type":"redacted_thinking","data":"xyz"},{"type":"text","text":"4"}]}""", """
                        {"id":"msg_5","object":"chat.completion","created":0,"model":"claude-x",
                         "choices":[{"index":0,"message":{"role":"assistant","content":"4","reasoning_content":"Two plus two…"},
                           "logprobs":null,"finish_reason":"stop"}],
                         "usage":{"prompt_tokens":2,"completion_tokens":5,"total_tokens":7,"prompt_tokens_details":{"cached_tokens":0}}}"""),
                arguments("usage counts cache reads and cache writes as prompt tokens and cache reads as cached", """
                        {"id":"msg_6","model":"claude-x","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn",
                         "usage":{"input_tokens":412,"output_tokens":88,"cache_creation_input_tokens":1000,"cache_read_input_tokens":2000}}""", """
                        {"id":"msg_6","object":"chat.completion","created":0,"model":"claude-x",
                         "choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"logprobs":null,"finish_reason":"stop"}],
                         "usage":{"prompt_tokens":3412,"completion_tokens":88,"total_tokens":3500,"prompt_tokens_details":{"cached_tokens":2000}}}"""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("responses")
    void translates(String rule, String message, String completion) {
        assertEquals(obj(completion), AnthropicResponses.toOpenAi(obj(message)));
    }

    @ParameterizedTest(name = "stop_reason {0} becomes finish_reason {1}")
    @CsvSource(nullValues = "-", textBlock = """
            end_turn,                      stop
            stop_sequence,                 stop
            max_tokens,                    length
            tool_use,                      tool_calls
            refusal,                       content_filter
            pause_turn,                    stop
            model_context_window_exceeded, length
            some_future_reason,            stop
            -,                             stop
            """)
    void mapsEveryStopReason(String stopReason, String finishReason) {
        JsonObject message = jakarta.json.Json.createObjectBuilder()
                .add("id", "msg_1").add("model", "claude-x")
                .add("content", jakarta.json.Json.createArrayBuilder())
                .add("stop_reason", stopReason == null ? jakarta.json.JsonValue.NULL : jakarta.json.Json.createValue(stopReason))
                .add("usage", obj("{\"input_tokens\":1,\"output_tokens\":0}"))
                .build();
        assertEquals(finishReason, AnthropicResponses.toOpenAi(message).getJsonArray("choices").getJsonObject(0)
                .getString("finish_reason"));
    }

    @Test
    void createdComesFromTheParameter() {
        JsonObject message = obj("""
                {"id":"msg_1","model":"claude-x","content":[],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":0}}""");
        assertEquals(1_726_012_687L, AnthropicResponses.toOpenAi(message, 1_726_012_687L).getJsonNumber("created").longValue());
    }
}
