package dev.baton.impl.anthropic;

import dev.baton.impl.translate.UntranslatableRequestException;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.baton.impl.anthropic.TestJson.merge;
import static dev.baton.impl.anthropic.TestJson.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The request translation table of docs/providers.md, one golden case per rule. Each case gives
 * OpenAI fields put over a one-message request and the Anthropic fields expected over the plain
 * translation of that request.
 */
class AnthropicRequestsTest {

    private static final JsonObject OPENAI = obj("""
            {"model":"support-drafts","messages":[{"role":"user","content":"Hi"}]}""");
    private static final JsonObject ANTHROPIC = obj("""
            {"model":"claude-x","max_tokens":4096,"stream":false,
             "messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}]}""");

    static Stream<Arguments> translations() {
        return Stream.of(
                arguments("a plain user message gets the default max_tokens and a text block", "{}", "{}"),
                arguments("system and developer messages anywhere are hoisted and joined with a newline, empty ones left out", """
                        {"messages":[{"role":"system","content":"Be brief."},{"role":"system","content":""},{"role":"user","content":"Hi"},
                                     {"role":"developer","content":[{"type":"text","text":"Use metric."}]}]}""", """
                        {"system":"Be brief.\\nUse metric."}"""),
                arguments("text parts become text blocks and empty text is left out", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"Hi"},{"type":"text","text":""},
                                                               {"type":"text","text":"there"}]}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"Hi"},{"type":"text","text":"there"}]}]}"""),
                arguments("a base64 data URL image becomes a base64 image source", """
                        {"messages":[{"role":"user","content":[{"type":"image_url",
                                      "image_url":{"url":"data:image/png;base64,iVBORw0K","detail":"high"}}]}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"image","source":
                                      {"type":"base64","media_type":"image/png","data":"iVBORw0K"}}]}]}"""),
                arguments("an https image URL becomes a url image source", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},
                                      {"type":"image_url","image_url":{"url":"https://example.com/cat.jpg"}}]}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},
                                      {"type":"image","source":{"type":"url","url":"https://example.com/cat.jpg"}}]}]}"""),
                arguments("assistant tool calls become tool_use blocks with the arguments parsed", """
                        {"messages":[{"role":"user","content":"Weather in Oslo?"},
                                     {"role":"assistant","content":"Checking.","tool_calls":[{"id":"call_1","type":"function",
                                      "function":{"name":"get_weather","arguments":"{\\"city\\":\\"Oslo\\"}"}}]}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"Weather in Oslo?"}]},
                                     {"role":"assistant","content":[{"type":"text","text":"Checking."},
                                      {"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Oslo"}}]}]}"""),
                arguments("an assistant tool call with null content and empty arguments gets an empty input", """
                        {"messages":[{"role":"user","content":"Time?"},
                                     {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
                                      "function":{"name":"now","arguments":""}}]}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"Time?"}]},
                                     {"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"now","input":{}}]}]}"""),
                arguments("consecutive tool messages become tool_result blocks in one user turn, merged with a following user message", """
                        {"messages":[{"role":"user","content":"Oslo and Rome?"},
                                     {"role":"assistant","content":"","tool_calls":[
                                       {"id":"call_1","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Oslo\\"}"}},
                                       {"id":"call_2","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Rome\\"}"}}]},
                                     {"role":"tool","tool_call_id":"call_1","content":"3C"},
                                     {"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":"21C"}]},
                                     {"role":"user","content":"Thanks"}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"Oslo and Rome?"}]},
                                     {"role":"assistant","content":[
                                       {"type":"tool_use","id":"call_1","name":"w","input":{"c":"Oslo"}},
                                       {"type":"tool_use","id":"call_2","name":"w","input":{"c":"Rome"}}]},
                                     {"role":"user","content":[
                                       {"type":"tool_result","tool_use_id":"call_1","content":"3C"},
                                       {"type":"tool_result","tool_use_id":"call_2","content":[{"type":"text","text":"21C"}]},
                                       {"type":"text","text":"Thanks"}]}]}"""),
                arguments("tool call ids outside Anthropic's alphabet are rewritten the same way in tool_use and tool_result", """
                        {"messages":[{"role":"user","content":"Go"},
                                     {"role":"assistant","tool_calls":[{"id":"functions.run:0","type":"function",
                                      "function":{"name":"run","arguments":"{}"}}]},
                                     {"role":"tool","tool_call_id":"functions.run:0","content":"done"}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"Go"}]},
                                     {"role":"assistant","content":[{"type":"tool_use","id":"functions_run_0","name":"run","input":{}}]},
                                     {"role":"user","content":[{"type":"tool_result","tool_use_id":"functions_run_0","content":"done"}]}]}"""),
                arguments("consecutive same-role turns are merged so roles alternate", """
                        {"messages":[{"role":"user","content":"One"},{"role":"user","content":"Two"},
                                     {"role":"assistant","content":"A"},{"role":"assistant","content":""},
                                     {"role":"assistant","content":"B"}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"One"},{"type":"text","text":"Two"}]},
                                     {"role":"assistant","content":[{"type":"text","text":"A"},{"type":"text","text":"B"}]}]}"""),
                arguments("function tools become name, description and input_schema; strict is dropped", """
                        {"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather now",
                                   "parameters":{"type":"object","properties":{"city":{"type":"string"}}},"strict":true}},
                                  {"type":"function","function":{"name":"now"}}]}""", """
                        {"tools":[{"name":"get_weather","description":"Weather now",
                                   "input_schema":{"type":"object","properties":{"city":{"type":"string"}}}},
                                  {"name":"now","input_schema":{"type":"object","properties":{}}}]}"""),
                arguments("tool_choice auto becomes type auto", """
                        {"tool_choice":"auto"}""", """
                        {"tool_choice":{"type":"auto"}}"""),
                arguments("tool_choice required becomes type any", """
                        {"tool_choice":"required"}""", """
                        {"tool_choice":{"type":"any"}}"""),
                arguments("tool_choice none becomes type none", """
                        {"tool_choice":"none"}""", """
                        {"tool_choice":{"type":"none"}}"""),
                arguments("tool_choice naming a function becomes type tool with the name", """
                        {"tool_choice":{"type":"function","function":{"name":"get_weather"}}}""", """
                        {"tool_choice":{"type":"tool","name":"get_weather"}}"""),
                arguments("parallel_tool_calls false disables parallel tool use on the tool_choice", """
                        {"tools":[{"type":"function","function":{"name":"now"}}],"tool_choice":"required","parallel_tool_calls":false}""", """
                        {"tools":[{"name":"now","input_schema":{"type":"object","properties":{}}}],
                         "tool_choice":{"type":"any","disable_parallel_tool_use":true}}"""),
                arguments("parallel_tool_calls false without a tool_choice becomes auto with parallel tool use disabled", """
                        {"tools":[{"type":"function","function":{"name":"now"}}],"parallel_tool_calls":false}""", """
                        {"tools":[{"name":"now","input_schema":{"type":"object","properties":{}}}],
                         "tool_choice":{"type":"auto","disable_parallel_tool_use":true}}"""),
                arguments("parallel_tool_calls false is not added to tool_choice none, which has no such field", """
                        {"tools":[{"type":"function","function":{"name":"now"}}],"tool_choice":"none","parallel_tool_calls":false}""", """
                        {"tools":[{"name":"now","input_schema":{"type":"object","properties":{}}}],"tool_choice":{"type":"none"}}"""),
                arguments("parallel_tool_calls false without tools adds nothing", """
                        {"parallel_tool_calls":false}""", "{}"),
                arguments("parallel_tool_calls true is dropped", """
                        {"tools":[{"type":"function","function":{"name":"now"}}],"parallel_tool_calls":true}""", """
                        {"tools":[{"name":"now","input_schema":{"type":"object","properties":{}}}]}"""),
                arguments("max_tokens becomes max_tokens", """
                        {"max_tokens":300}""", """
                        {"max_tokens":300}"""),
                arguments("max_completion_tokens becomes max_tokens and wins over max_tokens", """
                        {"max_tokens":300,"max_completion_tokens":500}""", """
                        {"max_tokens":500}"""),
                arguments("a stop string becomes a one-entry stop_sequences", """
                        {"stop":"END"}""", """
                        {"stop_sequences":["END"]}"""),
                arguments("a stop list becomes stop_sequences without whitespace-only entries", """
                        {"stop":["END"," ","\\n","STOP"]}""", """
                        {"stop_sequences":["END","STOP"]}"""),
                arguments("a stop list of whitespace only adds no stop_sequences", """
                        {"stop":["\\n"]}""", "{}"),
                arguments("a temperature above 1 is capped at 1", """
                        {"temperature":1.7}""", """
                        {"temperature":1}"""),
                arguments("a temperature up to 1 passes unchanged", """
                        {"temperature":0.3}""", """
                        {"temperature":0.3}"""),
                arguments("top_p passes", """
                        {"top_p":0.9}""", """
                        {"top_p":0.9}"""),
                arguments("user becomes metadata.user_id and OpenAI metadata is dropped", """
                        {"user":"u-42","metadata":{"team":"support"}}""", """
                        {"metadata":{"user_id":"u-42"}}"""),
                arguments("fields Anthropic's compatibility layer ignores, and unknown fields, are dropped", """
                        {"presence_penalty":0.5,"frequency_penalty":0.5,"seed":7,"logit_bias":{"50256":-100},"store":true,
                         "service_tier":"auto","prediction":{"type":"content","content":"x"},
                         "stream_options":{"include_usage":true},"reasoning_effort":"low","prompt_cache_key":"k",
                         "safety_identifier":"s","verbosity":"low","fallbacks":["gpt-x"],"top_k":5,"made_up":1}""", "{}"),
                arguments("harmless values of refused fields are accepted", """
                        {"n":1,"logprobs":false,"top_logprobs":0,"response_format":{"type":"text"},"modalities":["text"]}""",
                        "{}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("translations")
    void translates(String rule, String openAiFields, String anthropicFields) {
        JsonObject request = merge(OPENAI, obj(openAiFields));
        assertEquals(merge(ANTHROPIC, obj(anthropicFields)), AnthropicRequests.toAnthropic(request, "claude-x", false));
    }

    @Test
    void streamIsSetFromTheParameterNotFromTheBody() {
        JsonObject request = merge(OPENAI, obj("{\"stream\":false}"));
        assertEquals(merge(ANTHROPIC, obj("{\"stream\":true}")), AnthropicRequests.toAnthropic(request, "claude-x", true));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                arguments("n other than 1", "{\"n\":2}", "n"),
                arguments("logprobs true", "{\"logprobs\":true}", "logprobs"),
                arguments("top_logprobs", "{\"top_logprobs\":3}", "top_logprobs"),
                arguments("response_format json_schema", """
                        {"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{}}}}""", "response_format"),
                arguments("response_format json_object", """
                        {"response_format":{"type":"json_object"}}""", "response_format"),
                arguments("audio output", """
                        {"audio":{"voice":"alloy","format":"mp3"}}""", "audio"),
                arguments("modalities including audio", """
                        {"modalities":["text","audio"]}""", "modalities"),
                arguments("the deprecated functions", """
                        {"functions":[{"name":"f","parameters":{}}]}""", "functions"),
                arguments("an http image URL", """
                        {"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"http://example.com/a.png"}}]}]}""",
                        "messages[0].content[0].image_url.url"),
                arguments("a file image URL", """
                        {"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"file:///etc/passwd"}}]}]}""",
                        "messages[0].content[0].image_url.url"),
                arguments("a content part that is neither text nor image", """
                        {"messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"AAAA","format":"wav"}}]}]}""",
                        "messages[0].content[0]"),
                arguments("tool call arguments that are not JSON", """
                        {"messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
                                      "function":{"name":"f","arguments":"{city: secret-value"}}]}]}""",
                        "messages[1].tool_calls[0].function.arguments"),
                arguments("tool call arguments that are JSON but not an object", """
                        {"messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
                                      "function":{"name":"f","arguments":"[1,2]"}}]}]}""",
                        "messages[1].tool_calls[0].function.arguments"),
                // Found by AnthropicRequestsFuzzTest: Parsson's limits threw NumberFormatException and
                // UnsupportedOperationException out of the adapter, counted as a connection failure.
                arguments("tool call arguments with a number Parsson cannot read", """
                        {"messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
                                      "function":{"name":"f","arguments":"{\\"a\\":1e99999999999}"}}]}]}""",
                        "messages[1].tool_calls[0].function.arguments"),
                arguments("tool call arguments with a number longer than Parsson reads", """
                        {"messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
                                      "function":{"name":"f","arguments":"{\\"a\\":%s}"}}]}]}""".formatted("1".repeat(1200)),
                        "messages[1].tool_calls[0].function.arguments"),
                arguments("a tool message without tool_call_id", """
                        {"messages":[{"role":"tool","content":"x"}]}""", "messages[0].tool_call_id"),
                arguments("a role that is not translated", """
                        {"messages":[{"role":"function","name":"f","content":"x"}]}""", "messages[0].role"),
                arguments("a tool that is not a function", """
                        {"tools":[{"type":"custom","custom":{"name":"x"}}]}""", "tools[0]"),
                arguments("a tool_choice that is not translated", """
                        {"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[]}}}""", "tool_choice"),
                arguments("a max_tokens that is not a positive whole number", "{\"max_tokens\":0}", "max_tokens"),
                arguments("only system messages", """
                        {"messages":[{"role":"system","content":"Be brief."}]}""", "messages"));
    }

    @ParameterizedTest(name = "refuses {0}, naming {2}")
    @MethodSource("refusals")
    void refusesWhatAnthropicCannotHonour(String rule, String openAiFields, String field) {
        JsonObject request = merge(OPENAI, obj(openAiFields));
        UntranslatableRequestException refusal = assertThrows(UntranslatableRequestException.class,
                () -> AnthropicRequests.toAnthropic(request, "claude-x", false));
        assertEquals(field, refusal.field());
        assertTrue(refusal.getMessage().startsWith(field + ": "), refusal.getMessage());
    }

    @Test
    void aRefusalNamesTheFieldWithoutEchoingItsContent() {
        JsonObject request = obj("""
                {"messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
                              "function":{"name":"f","arguments":"{key: sk-ant-secret"}}]}]}""");
        UntranslatableRequestException refusal = assertThrows(UntranslatableRequestException.class,
                () -> AnthropicRequests.toAnthropic(request, "claude-x", false));
        assertFalse(refusal.getMessage().contains("sk-ant-secret"), refusal.getMessage());
    }
}
