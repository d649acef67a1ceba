package dev.baton.impl.translate;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * {@link ResponsesRequests#toChat}, one golden case per rule: Responses fields put over a one-line request, and the
 * chat fields expected over the plain translation of that request.
 */
class ResponsesRequestsTest {

    private static final JsonObject RESPONSES = obj("""
            {"model":"gpt-x","input":"Hi"}""");
    private static final JsonObject CHAT = obj("""
            {"model":"gpt-x","messages":[{"role":"user","content":"Hi"}]}""");

    static JsonObject obj(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    private static JsonObject merge(JsonObject base, JsonObject overrides) {
        var builder = Json.createObjectBuilder(base);
        overrides.forEach(builder::add);
        return builder.build();
    }

    static Stream<Arguments> translations() {
        return Stream.of(
                arguments("a string input is one user message", "{}", "{}"),
                arguments("instructions become the first, system, message", """
                        {"instructions":"Be brief."}""", """
                        {"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}"""),
                arguments("a stream asks for the usage chunk", """
                        {"stream":true}""", """
                        {"stream":true,"stream_options":{"include_usage":true}}"""),
                arguments("a stream:false is copied and asks for nothing more", """
                        {"stream":false}""", """
                        {"stream":false}"""),
                arguments("message items with string content keep their roles; a missing type is a message", """
                        {"input":[{"type":"message","role":"developer","content":"Use metric."},
                                  {"role":"system","content":"Be kind."},
                                  {"role":"user","content":"Hi"},{"type":"message","role":"assistant","content":"Hello"}]}""", """
                        {"messages":[{"role":"developer","content":"Use metric."},{"role":"system","content":"Be kind."},
                                     {"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"}]}"""),
                arguments("user parts become text and image_url parts, with the detail", """
                        {"input":[{"role":"user","content":[{"type":"input_text","text":"What is this?"},
                                   {"type":"input_image","image_url":"https://example.com/cat.jpg","detail":"low"},
                                   {"type":"input_image","image_url":"data:image/png;base64,iVBORw0K"}]}]}""", """
                        {"messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},
                                   {"type":"image_url","image_url":{"url":"https://example.com/cat.jpg","detail":"low"}},
                                   {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0K"}}]}]}"""),
                arguments("an earlier answer's parts, text and refusal, become one string", """
                        {"input":[{"role":"user","content":"Hi"},
                                  {"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[
                                   {"type":"output_text","text":"Hello. ","annotations":[]},
                                   {"type":"refusal","refusal":"I can't help with that."}]}]}""", """
                        {"messages":[{"role":"user","content":"Hi"},
                                     {"role":"assistant","content":"Hello. I can't help with that."}]}"""),
                arguments("developer parts become text parts", """
                        {"input":[{"role":"developer","content":[{"type":"input_text","text":"Use metric."}]}]}""", """
                        {"messages":[{"role":"developer","content":[{"type":"text","text":"Use metric."}]}]}"""),
                arguments("function calls join the assistant message before them; outputs become tool messages", """
                        {"input":[{"role":"user","content":"Oslo and Rome?"},
                                  {"role":"assistant","content":"Checking."},
                                  {"type":"function_call","id":"fc_1","call_id":"call_1","name":"w","arguments":"{\\"c\\":\\"Oslo\\"}"},
                                  {"type":"function_call","call_id":"call_2","name":"w","arguments":"{\\"c\\":\\"Rome\\"}","status":"completed"},
                                  {"type":"function_call_output","call_id":"call_1","output":"3C"},
                                  {"type":"function_call_output","call_id":"call_2","output":[{"type":"input_text","text":"21C"}]}]}""", """
                        {"messages":[{"role":"user","content":"Oslo and Rome?"},
                                     {"role":"assistant","content":"Checking.","tool_calls":[
                                       {"id":"call_1","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Oslo\\"}"}},
                                       {"id":"call_2","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Rome\\"}"}}]},
                                     {"role":"tool","tool_call_id":"call_1","content":"3C"},
                                     {"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":"21C"}]}]}"""),
                arguments("a function call after a user message starts an assistant message without content", """
                        {"input":[{"role":"user","content":"Time?"},
                                  {"type":"function_call","call_id":"call_1","name":"now","arguments":""},
                                  {"type":"function_call_output","call_id":"call_1","output":"noon"},
                                  {"type":"function_call","call_id":"call_2","name":"now","arguments":"{}"}]}""", """
                        {"messages":[{"role":"user","content":"Time?"},
                                     {"role":"assistant","content":null,"tool_calls":[
                                       {"id":"call_1","type":"function","function":{"name":"now","arguments":""}}]},
                                     {"role":"tool","tool_call_id":"call_1","content":"noon"},
                                     {"role":"assistant","content":null,"tool_calls":[
                                       {"id":"call_2","type":"function","function":{"name":"now","arguments":"{}"}}]}]}"""),
                arguments("reasoning items are dropped", """
                        {"input":[{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA"},
                                  {"role":"user","content":"Hi"}]}""", "{}"),
                arguments("function tools are wrapped, hosted-tool-free; tool_choice by name too", """
                        {"tools":[{"type":"function","name":"w","description":"Weather","parameters":{"type":"object"},"strict":true},
                                  {"type":"function","name":"now"}],
                         "tool_choice":{"type":"function","name":"w"}}""", """
                        {"tools":[{"type":"function","function":{"name":"w","description":"Weather","parameters":{"type":"object"},"strict":true}},
                                  {"type":"function","function":{"name":"now"}}],
                         "tool_choice":{"type":"function","function":{"name":"w"}}}"""),
                arguments("a tool_choice string is copied", """
                        {"tool_choice":"required"}""", """
                        {"tool_choice":"required"}"""),
                arguments("settings chat shares are copied", """
                        {"parallel_tool_calls":false,"temperature":0.2,"top_p":0.9,"user":"u1","safety_identifier":"s1",
                         "prompt_cache_key":"k1","metadata":{"team":"a"},"service_tier":"flex"}""", """
                        {"parallel_tool_calls":false,"temperature":0.2,"top_p":0.9,"user":"u1","safety_identifier":"s1",
                         "prompt_cache_key":"k1","metadata":{"team":"a"},"service_tier":"flex"}"""),
                arguments("max_output_tokens, reasoning effort and verbosity get chat's names", """
                        {"max_output_tokens":300,"reasoning":{"effort":"low","summary":"auto"},"text":{"verbosity":"low"}}""", """
                        {"max_completion_tokens":300,"reasoning_effort":"low","verbosity":"low"}"""),
                arguments("a text format is chat's default", """
                        {"text":{"format":{"type":"text"}}}""", "{}"),
                arguments("a json_object format", """
                        {"text":{"format":{"type":"json_object"}}}""", """
                        {"response_format":{"type":"json_object"}}"""),
                arguments("a json_schema format is nested under json_schema", """
                        {"text":{"format":{"type":"json_schema","name":"city","description":"A city",
                                           "schema":{"type":"object","properties":{"name":{"type":"string"}}},"strict":true}}}""", """
                        {"response_format":{"type":"json_schema","json_schema":{"name":"city",
                                           "schema":{"type":"object","properties":{"name":{"type":"string"}}},
                                           "strict":true,"description":"A city"}}}"""),
                arguments("harmless fields are left out, and so are nulls", """
                        {"store":false,"stream_options":{"include_obfuscation":false},"truncation":"disabled","include":[],
                         "background":false,"previous_response_id":null,"max_tool_calls":null,"top_logprobs":0}""", "{}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("translations")
    void translates(String rule, String responsesFields, String chatFields) {
        JsonObject chat = ResponsesRequests.toChat(merge(RESPONSES, obj(responsesFields)));
        assertEquals(merge(CHAT, obj(chatFields)), chat);
    }

    @Test
    void theSystemMessageOfInstructionsComesBeforeTheInputItems() {
        JsonObject chat = ResponsesRequests.toChat(obj("""
                {"model":"m","instructions":"Be brief.","input":[{"role":"user","content":"Hi"}]}"""));
        assertEquals(obj("""
                {"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}""")
                .get("messages"), chat.get("messages"));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                arguments("a stored response", "{\"previous_response_id\":\"resp_1\"}", "previous_response_id"),
                arguments("a stored conversation", "{\"conversation\":\"conv_1\"}", "conversation"),
                arguments("a background run", "{\"background\":true}", "background"),
                arguments("a stored prompt", "{\"prompt\":{\"id\":\"pmpt_1\"}}", "prompt"),
                arguments("extra outputs", "{\"include\":[\"reasoning.encrypted_content\"]}", "include"),
                arguments("automatic truncation", "{\"truncation\":\"auto\"}", "truncation"),
                arguments("log probabilities", "{\"top_logprobs\":3}", "top_logprobs"),
                arguments("an unknown field", "{\"max_tool_calls\":3}", "max_tool_calls"),
                arguments("a missing input", "{\"input\":null}", "input"),
                arguments("an input of another type", "{\"input\":{\"role\":\"user\"}}", "input"),
                arguments("a hosted tool", """
                        {"tools":[{"type":"function","name":"w"},{"type":"function","name":"x"},{"type":"web_search"}]}""",
                        "tools[2]"),
                arguments("a custom tool", "{\"tools\":[{\"type\":\"custom\",\"name\":\"grammar\"}]}", "tools[0]"),
                arguments("a tool_choice of a hosted tool", "{\"tool_choice\":{\"type\":\"web_search_preview\"}}", "tool_choice"),
                arguments("allowed tools", """
                        {"tool_choice":{"type":"allowed_tools","mode":"auto","tools":[]}}""", "tool_choice"),
                arguments("an item reference", """
                        {"input":[{"role":"user","content":"Hi"},{"type":"item_reference","id":"msg_1"}]}""", "input[1]"),
                arguments("a hosted tool's call", """
                        {"input":[{"type":"web_search_call","id":"ws_1","status":"completed"}]}""", "input[0]"),
                arguments("an uploaded image", """
                        {"input":[{"role":"user","content":[{"type":"input_text","text":"Hi"},
                                  {"type":"input_image","file_id":"file-1"}]}]}""", "input[0].content[1]"),
                arguments("a file", """
                        {"input":[{"role":"user","content":"Hi"},{"role":"user","content":[
                                  {"type":"input_file","file_data":"JVBERi0"}]}]}""", "input[1].content[0]"),
                arguments("audio", """
                        {"input":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"UklG","format":"wav"}}]}]}""",
                        "input[0].content[0]"),
                arguments("an image URL of another scheme", """
                        {"input":[{"role":"user","content":[{"type":"input_image","image_url":"file:///etc/passwd"}]}]}""",
                        "input[0].content[0].image_url"),
                arguments("an image in an assistant message", """
                        {"input":[{"role":"assistant","content":[{"type":"input_image","image_url":"https://x/y.png"}]}]}""",
                        "input[0].content[0]"),
                arguments("an image in a tool's output", """
                        {"input":[{"type":"function_call_output","call_id":"c","output":[
                                  {"type":"input_image","image_url":"https://x/y.png"}]}]}""", "input[0].output[0]"),
                arguments("a function call without call_id", """
                        {"input":[{"type":"function_call","name":"w","arguments":"{}"}]}""", "input[0].call_id"),
                arguments("a message of another role", """
                        {"input":[{"role":"tool","content":"3C"}]}""", "input[0].role"),
                arguments("instructions that are no string", "{\"instructions\":[{\"role\":\"system\"}]}", "instructions"),
                arguments("a format of another type", "{\"text\":{\"format\":{\"type\":\"grammar\"}}}", "text.format.type"),
                arguments("a json_schema format without a schema", """
                        {"text":{"format":{"type":"json_schema","name":"x"}}}""", "text.format.schema"));
    }

    @ParameterizedTest(name = "refuses {0}, naming {2}")
    @MethodSource("refusals")
    void refusesWhatChatCannotCarry(String rule, String responsesFields, String field) {
        JsonObject request = merge(RESPONSES, obj(responsesFields));
        UntranslatableRequestException refusal = assertThrows(UntranslatableRequestException.class,
                () -> ResponsesRequests.toChat(request));
        assertEquals(field, refusal.field());
        assertTrue(refusal.getMessage().startsWith(field + ": "), refusal.getMessage());
    }

    @Test
    void aHostedToolIsNamedInTheRefusal() {
        UntranslatableRequestException refusal = assertThrows(UntranslatableRequestException.class,
                () -> ResponsesRequests.toChat(merge(RESPONSES, obj("{\"tools\":[{\"type\":\"code_interpreter\"}]}"))));
        assertEquals("tools[0]: hosted tool `code_interpreter` runs only on OpenAI's Responses API",
                refusal.getMessage());
    }

    @Test
    void aRefusalNamesTheFieldWithoutEchoingContent() {
        JsonObject request = obj("""
                {"model":"m","input":[{"role":"user","content":[{"type":"sk-secret-part","text":"sk-secret-text"}]},
                                      {"type":"sk-secret-item"}]}""");
        UntranslatableRequestException refusal = assertThrows(UntranslatableRequestException.class,
                () -> ResponsesRequests.toChat(request));
        assertEquals("input[0].content[0]", refusal.field());
        assertFalse(refusal.getMessage().contains("sk-secret"), refusal.getMessage());

        UntranslatableRequestException item = assertThrows(UntranslatableRequestException.class,
                () -> ResponsesRequests.toChat(obj("{\"input\":[{\"type\":\"sk-secret-item\"}]}")));
        assertEquals("input[0]", item.field());
        assertFalse(item.getMessage().contains("sk-secret"), item.getMessage());
    }
}
