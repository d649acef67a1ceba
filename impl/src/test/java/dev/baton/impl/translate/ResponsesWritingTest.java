package dev.baton.impl.translate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.openai.core.ObjectMappers;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.ResponseUsage;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.baton.impl.translate.ResponsesRequestsTest.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ResponsesWriting}: chat answers as Responses answers, whole and streamed, each checked against the JSON it
 * must be and parsed by the official OpenAI SDK as its users would.
 */
class ResponsesWritingTest {

    private static final JsonObject REQUEST = obj("""
            {"model":"gpt-x","input":"Hi"}""");
    private static final long CREATED = 1_700_000_000L;

    private static JsonObject completion(String message, String finishReason, String usage) {
        return obj("""
                {"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"claude-x",
                 "choices":[{"index":0,"message":%s,"logprobs":null,"finish_reason":"%s"}]%s}"""
                .formatted(message, finishReason, usage == null ? "" : ",\"usage\":" + usage));
    }

    private static final String USAGE = """
            {"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":4},
             "completion_tokens_details":{"reasoning_tokens":2}}""";

    private static Response sdkResponse(JsonObject response) throws JsonProcessingException {
        return ObjectMappers.jsonMapper().readValue(response.toString(), Response.class).validate();
    }

    private static ResponseStreamEvent sdkEvent(JsonObject event) throws JsonProcessingException {
        return ObjectMappers.jsonMapper().readValue(event.toString(), ResponseStreamEvent.class).validate();
    }

    // ---- whole answers ----

    @Test
    void aTextAnswerIsAMessageItemWithTheRequestsDefaultsEchoed() throws Exception {
        JsonObject response = ResponsesWriting.response(
                completion("{\"role\":\"assistant\",\"content\":\"Hello!\"}", "stop", USAGE), REQUEST, "resp_abc",
                CREATED);

        assertEquals(obj("""
                {"id":"resp_abc","object":"response","created_at":1700000000,"status":"completed","error":null,
                 "incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"claude-x",
                 "output":[{"id":"msg_abc_0","type":"message","status":"completed","role":"assistant",
                            "content":[{"type":"output_text","text":"Hello!","annotations":[]}]}],
                 "parallel_tool_calls":true,"temperature":1.0,"text":{"format":{"type":"text"}},"tool_choice":"auto",
                 "tools":[],"top_p":1.0,
                 "usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":4,"cache_write_tokens":0},
                          "output_tokens":5,"output_tokens_details":{"reasoning_tokens":2},"total_tokens":17},
                 "metadata":{},"access_programs":null}"""), response);

        Response parsed = sdkResponse(response);
        assertEquals("resp_abc", parsed.id());
        assertEquals(ResponseStatus.COMPLETED, parsed.status().orElseThrow());
        assertEquals("Hello!", parsed.output().get(0).asMessage().content().get(0).asOutputText().text());
        ResponseUsage usage = parsed.usage().orElseThrow();
        assertEquals(12, usage.inputTokens());
        assertEquals(4, usage.inputTokensDetails().cachedTokens());
        assertEquals(5, usage.outputTokens());
        assertEquals(2, usage.outputTokensDetails().reasoningTokens());
        assertEquals(17, usage.totalTokens());
    }

    @Test
    void theRequestsSettingsAreEchoed() throws Exception {
        JsonObject request = obj("""
                {"model":"gpt-x","input":"Hi","instructions":"Be brief.","max_output_tokens":300,
                 "parallel_tool_calls":false,"temperature":0.2,"top_p":0.5,
                 "text":{"format":{"type":"json_object"},"verbosity":"low"},
                 "tool_choice":{"type":"function","name":"w"},
                 "tools":[{"type":"function","name":"w","parameters":{"type":"object"},"strict":true}],
                 "metadata":{"team":"a"}}""");
        JsonObject response = ResponsesWriting.response(
                completion("{\"role\":\"assistant\",\"content\":\"{}\"}", "stop", null), request, "resp_abc", CREATED);

        for (String field : List.of("instructions", "max_output_tokens", "parallel_tool_calls", "temperature", "top_p",
                "text", "tool_choice", "tools", "metadata")) {
            assertEquals(request.get(field), response.get(field), field);
        }
        assertEquals(JsonValue.NULL, response.get("usage"));
        Response parsed = sdkResponse(response);
        assertEquals("Be brief.", parsed.instructions().orElseThrow().asString());
        assertFalse(parsed.usage().isPresent());
    }

    @Test
    void twoParallelToolCallsAreTwoFunctionCallItemsAfterTheText() throws Exception {
        JsonObject response = ResponsesWriting.response(completion("""
                {"role":"assistant","content":"Checking.","tool_calls":[
                  {"id":"call_1","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Oslo\\"}"}},
                  {"id":"call_2","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Rome\\"}"}}]}""",
                "tool_calls", USAGE), REQUEST, "resp_abc", CREATED);

        assertEquals(obj("""
                {"output":[{"id":"msg_abc_0","type":"message","status":"completed","role":"assistant",
                            "content":[{"type":"output_text","text":"Checking.","annotations":[]}]},
                           {"id":"fc_abc_1","type":"function_call","status":"completed","arguments":"{\\"c\\":\\"Oslo\\"}",
                            "call_id":"call_1","name":"w"},
                           {"id":"fc_abc_2","type":"function_call","status":"completed","arguments":"{\\"c\\":\\"Rome\\"}",
                            "call_id":"call_2","name":"w"}]}""").get("output"), response.get("output"));
        assertEquals("completed", response.getString("status"));

        List<ResponseOutputItem> output = sdkResponse(response).output();
        ResponseFunctionToolCall second = output.get(2).asFunctionCall();
        assertEquals("call_2", second.callId());
        assertEquals("w", second.name());
        assertEquals("{\"c\":\"Rome\"}", second.arguments());
        assertEquals("fc_abc_2", second.id().orElseThrow());
    }

    @Test
    void aRefusalIsARefusalPart() throws Exception {
        JsonObject response = ResponsesWriting.response(
                completion("{\"role\":\"assistant\",\"content\":null,\"refusal\":\"I can't help with that.\"}",
                        "stop", null), REQUEST, "resp_abc", CREATED);

        assertEquals(obj("""
                {"content":[{"type":"refusal","refusal":"I can't help with that."}]}""").get("content"),
                response.getJsonArray("output").getJsonObject(0).get("content"));
        assertEquals("I can't help with that.",
                sdkResponse(response).output().get(0).asMessage().content().get(0).asRefusal().refusal());
    }

    @Test
    void anAnswerCutShortIsIncompleteAndSaysWhy() throws Exception {
        JsonObject length = ResponsesWriting.response(
                completion("{\"role\":\"assistant\",\"content\":\"Once upon\"}", "length", USAGE), REQUEST,
                "resp_abc", CREATED);
        assertEquals("incomplete", length.getString("status"));
        assertEquals(obj("{\"reason\":\"max_output_tokens\"}"), length.get("incomplete_details"));
        assertEquals("incomplete", length.getJsonArray("output").getJsonObject(0).getString("status"));
        Response parsed = sdkResponse(length);
        assertEquals(ResponseStatus.INCOMPLETE, parsed.status().orElseThrow());
        assertEquals(Response.IncompleteDetails.Reason.MAX_OUTPUT_TOKENS,
                parsed.incompleteDetails().orElseThrow().reason().orElseThrow());

        JsonObject filtered = ResponsesWriting.response(
                completion("{\"role\":\"assistant\",\"content\":\"\"}", "content_filter", null), REQUEST,
                "resp_abc", CREATED);
        assertEquals("incomplete", filtered.getString("status"));
        assertEquals(obj("{\"reason\":\"content_filter\"}"), filtered.get("incomplete_details"));
        assertEquals(JsonValue.EMPTY_JSON_ARRAY, filtered.get("output"));
        sdkResponse(filtered);
    }

    @Test
    void reasoningComesFirstAsASummary() throws Exception {
        JsonObject response = ResponsesWriting.response(completion("""
                {"role":"assistant","content":"4","reasoning_content":"2 and 2 make 4."}""", "stop", null),
                REQUEST, "resp_abc", CREATED);

        assertEquals(obj("""
                {"id":"rs_abc_0","type":"reasoning","summary":[{"type":"summary_text","text":"2 and 2 make 4."}]}"""),
                response.getJsonArray("output").getJsonObject(0));
        assertEquals("msg_abc_1", response.getJsonArray("output").getJsonObject(1).getString("id"));
        assertEquals("2 and 2 make 4.",
                sdkResponse(response).output().get(0).asReasoning().summary().get(0).text());
    }

    @Test
    void batonsCostEstimateStaysInTheUsage() {
        JsonObject response = ResponsesWriting.response(completion("{\"role\":\"assistant\",\"content\":\"Hi\"}",
                "stop", "{\"prompt_tokens\":3,\"completion_tokens\":1,\"cost\":0.25,\"price_source\":\"config\","
                        + "\"cost_currency\":\"USD\"}"), REQUEST, "resp_abc", CREATED);
        JsonObject usage = response.getJsonObject("usage");
        assertEquals(4, usage.getInt("total_tokens"));
        assertEquals(0.25, usage.getJsonNumber("cost").doubleValue());
        assertEquals("USD", usage.getString("cost_currency"));
    }

    // ---- streams ----

    private static JsonObject chunk(String delta, String finishReason) {
        return obj("""
                {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"claude-x",
                 "choices":[{"index":0,"delta":%s,"finish_reason":%s}]}"""
                .formatted(delta, finishReason == null ? "null" : "\"" + finishReason + "\""));
    }

    private static JsonObject usageChunk() {
        return obj("""
                {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"claude-x",
                 "choices":[],"usage":%s}""".formatted(USAGE));
    }

    /** Every event of the stream of {@code chunks}, each checked to parse with the SDK. */
    private static List<JsonObject> stream(JsonObject request, JsonObject... chunks) throws JsonProcessingException {
        ResponsesWriting.Stream stream = new ResponsesWriting.Stream("resp_abc", request, CREATED);
        List<JsonObject> events = new ArrayList<>();
        for (JsonObject chunk : chunks) {
            events.addAll(stream.onChunk(chunk));
        }
        events.addAll(stream.finish());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).getInt("sequence_number"), "sequence_number of " + events.get(i));
            sdkEvent(events.get(i)); // throws on an unknown type or a missing member
        }
        return events;
    }

    private static List<String> types(List<JsonObject> events) {
        return events.stream().map(e -> e.getString("type")).toList();
    }

    private static JsonObject last(List<JsonObject> events) {
        return events.get(events.size() - 1);
    }

    @Test
    void aTextStream() throws Exception {
        List<JsonObject> events = stream(REQUEST,
                chunk("{\"role\":\"assistant\",\"content\":\"\"}", null),
                chunk("{\"content\":\"Hel\"}", null),
                chunk("{\"content\":\"lo!\"}", null),
                chunk("{}", "stop"),
                usageChunk());

        assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed"), types(events));
        JsonObject created = events.get(0).getJsonObject("response");
        assertEquals("in_progress", created.getString("status"));
        assertEquals(JsonValue.EMPTY_JSON_ARRAY, created.get("output"));
        assertEquals("claude-x", created.getString("model"));
        assertEquals(obj("""
                {"type":"response.output_item.added","sequence_number":2,"output_index":0,
                 "item":{"id":"msg_abc_0","type":"message","status":"in_progress","role":"assistant","content":[]}}"""),
                events.get(2));
        assertEquals(obj("""
                {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_abc_0","output_index":0,
                 "content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}"""), events.get(3));
        assertEquals(obj("""
                {"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_abc_0","output_index":0,
                 "content_index":0,"delta":"lo!","logprobs":[]}"""), events.get(5));
        assertEquals(obj("""
                {"type":"response.output_text.done","sequence_number":6,"item_id":"msg_abc_0","output_index":0,
                 "content_index":0,"text":"Hello!","logprobs":[]}"""), events.get(6));
        assertEquals("lo!", sdkEvent(events.get(5)).asOutputTextDelta().delta());
        assertEquals("Hello!", sdkEvent(events.get(6)).asOutputTextDone().text());

        JsonObject whole = ResponsesWriting.response(
                completion("{\"role\":\"assistant\",\"content\":\"Hello!\"}", "stop", USAGE), REQUEST, "resp_abc",
                CREATED);
        assertEquals(whole, last(events).getJsonObject("response"));
        assertEquals(whole.getJsonArray("output").get(0), events.get(8).get("item"));
        Response completed = sdkEvent(last(events)).asCompleted().response();
        assertEquals(17, completed.usage().orElseThrow().totalTokens());
    }

    @Test
    void textThenTwoParallelToolCalls() throws Exception {
        List<JsonObject> events = stream(REQUEST,
                chunk("{\"role\":\"assistant\",\"content\":\"Checking.\"}", null),
                chunk("""
                        {"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"w","arguments":""}}]}""",
                        null),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"c\\\":\"}}]}", null),
                chunk("""
                        {"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"w","arguments":"{\\"c\\":"}}]}""",
                        null),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"Oslo\\\"}\"}}]}", null),
                chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"\\\"Rome\\\"}\"}}]}", null),
                chunk("{}", "tool_calls"),
                usageChunk());

        assertEquals(List.of("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.output_item.added", "response.function_call_arguments.delta",
                "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.delta", "response.function_call_arguments.delta",
                "response.function_call_arguments.done", "response.output_item.done",
                "response.function_call_arguments.done", "response.output_item.done",
                "response.completed"), types(events));
        assertEquals(obj("""
                {"type":"response.output_item.added","sequence_number":8,"output_index":1,
                 "item":{"id":"fc_abc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"w"}}"""),
                events.get(8));
        assertEquals(obj("""
                {"type":"response.function_call_arguments.delta","sequence_number":12,"item_id":"fc_abc_1",
                 "output_index":1,"delta":"\\"Oslo\\"}"}"""), events.get(12));
        assertEquals(obj("""
                {"type":"response.function_call_arguments.done","sequence_number":16,"item_id":"fc_abc_2",
                 "output_index":2,"arguments":"{\\"c\\":\\"Rome\\"}"}"""), events.get(16));

        JsonObject whole = ResponsesWriting.response(completion("""
                {"role":"assistant","content":"Checking.","tool_calls":[
                  {"id":"call_1","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Oslo\\"}"}},
                  {"id":"call_2","type":"function","function":{"name":"w","arguments":"{\\"c\\":\\"Rome\\"}"}}]}""",
                "tool_calls", USAGE), REQUEST, "resp_abc", CREATED);
        assertEquals(whole, last(events).getJsonObject("response"));
        assertEquals(whole.getJsonArray("output").get(2), events.get(17).get("item"));
        assertEquals("call_2", sdkEvent(events.get(17)).asOutputItemDone().item().asFunctionCall().callId());
    }

    @Test
    void aReasoningStreamIsASummaryBeforeTheText() throws Exception {
        List<JsonObject> events = stream(REQUEST,
                chunk("{\"role\":\"assistant\",\"reasoning_content\":\"2 and 2\"}", null),
                chunk("{\"reasoning_content\":\" make 4.\"}", null),
                chunk("{\"content\":\"4\"}", "stop"));

        assertEquals(List.of("response.created", "response.in_progress",
                "response.output_item.added", "response.reasoning_summary_part.added",
                "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
                "response.output_item.done",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed"), types(events));
        assertEquals(obj("""
                {"type":"response.reasoning_summary_text.done","sequence_number":6,"item_id":"rs_abc_0","output_index":0,
                 "summary_index":0,"text":"2 and 2 make 4."}"""), events.get(6));
        JsonObject whole = ResponsesWriting.response(completion("""
                {"role":"assistant","content":"4","reasoning_content":"2 and 2 make 4."}""", "stop", null),
                REQUEST, "resp_abc", CREATED);
        assertEquals(whole, last(events).getJsonObject("response"));
        assertEquals(JsonValue.NULL, whole.get("usage"));
    }

    @Test
    void aRefusalStream() throws Exception {
        List<JsonObject> events = stream(REQUEST,
                chunk("{\"role\":\"assistant\",\"refusal\":\"I can't \"}", null),
                chunk("{\"refusal\":\"help.\"}", "stop"));

        assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added", "response.refusal.delta", "response.refusal.delta",
                "response.refusal.done", "response.content_part.done", "response.output_item.done",
                "response.completed"), types(events));
        assertEquals("I can't help.", sdkEvent(events.get(6)).asRefusalDone().refusal());
        assertEquals(ResponsesWriting.response(
                        completion("{\"role\":\"assistant\",\"content\":null,\"refusal\":\"I can't help.\"}", "stop",
                                null), REQUEST, "resp_abc", CREATED),
                last(events).getJsonObject("response"));
    }

    @Test
    void aStreamCutShortEndsIncomplete() throws Exception {
        List<JsonObject> events = stream(REQUEST,
                chunk("{\"role\":\"assistant\",\"content\":\"Once upon\"}", "length"),
                usageChunk());

        assertEquals("response.incomplete", last(events).getString("type"));
        JsonObject itemDone = events.get(events.size() - 2);
        assertEquals("response.output_item.done", itemDone.getString("type"));
        assertEquals("incomplete", itemDone.getJsonObject("item").getString("status"));
        assertEquals(ResponsesWriting.response(
                        completion("{\"role\":\"assistant\",\"content\":\"Once upon\"}", "length", USAGE), REQUEST,
                        "resp_abc", CREATED),
                last(events).getJsonObject("response"));
        assertTrue(sdkEvent(last(events)).isIncomplete());
    }

    @Test
    void aStreamWithoutChunksStillOpensAndCompletes() throws Exception {
        List<JsonObject> events = stream(REQUEST);

        assertEquals(List.of("response.created", "response.in_progress", "response.completed"), types(events));
        JsonObject response = last(events).getJsonObject("response");
        assertEquals("gpt-x", response.getString("model"));
        assertEquals(JsonValue.EMPTY_JSON_ARRAY, response.get("output"));
    }

    @Test
    void toolCallsWithoutAnIndexAreToldApartByTheirIds() throws Exception {
        List<JsonObject> events = stream(REQUEST,
                chunk("""
                        {"tool_calls":[{"id":"call_1","type":"function","function":{"name":"a","arguments":"{}"}},
                                       {"id":"call_2","type":"function","function":{"name":"b","arguments":"{"}}]}""",
                        null),
                chunk("{\"tool_calls\":[{\"function\":{\"arguments\":\"}\"}}]}", "tool_calls"));

        JsonArray output = last(events).getJsonObject("response").getJsonArray("output");
        assertEquals(2, output.size());
        assertEquals("{}", output.getJsonObject(0).getString("arguments"));
        assertEquals("{}", output.getJsonObject(1).getString("arguments"));
        assertEquals("b", output.getJsonObject(1).getString("name"));
    }

    @Test
    void streamsOfOtherShapesParseToo() throws Exception {
        // the settings echoed in response.created must parse as well
        JsonObject request = obj("""
                {"model":"gpt-x","input":"Hi","instructions":"Be brief.","tool_choice":"required",
                 "tools":[{"type":"function","name":"w","parameters":{"type":"object"},"strict":false}],
                 "text":{"format":{"type":"json_schema","name":"x","schema":{"type":"object"},"strict":true}}}""");
        List<JsonObject> events = stream(request, chunk("{\"content\":\"{}\"}", "stop"));
        assertEquals(Json.createValue("required"), events.get(0).getJsonObject("response").get("tool_choice"));
        assertTrue(sdkEvent(events.get(0)).isCreated());
    }
}
