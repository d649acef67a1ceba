package dev.baton.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.message.VideoContent;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LangChain4j request → Baton body, as a golden table: each row is a LangChain4j request and the
 * exact chat-completions body Baton receives (JSON, compared as a value), or the refusal.
 */
class BatonRequestsTest {

    private static final String ROUTE = "support";
    private static final String PNG = "iVBORw0KGgo=";

    static Stream<Arguments> golden() {
        return Stream.of(
                row("system and user text; no model: the route",
                        request(SystemMessage.from("Be brief."), UserMessage.from("Hi")),
                """
                {"model":"support","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}
                """),
                row("a named user", request(UserMessage.from("ann", "Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi","name":"ann"}]}
                """),
                row("an image by URL with detail, after text",
                        request(UserMessage.from(TextContent.from("What is this?"),
                                ImageContent.from("https://example.com/cat.png", ImageContent.DetailLevel.LOW))), """
                {"model":"support","messages":[{"role":"user","content":[
                  {"type":"text","text":"What is this?"},
                  {"type":"image_url","image_url":{"url":"https://example.com/cat.png","detail":"low"}}]}]}
                """),
                row("an inline image becomes a data URL",
                        request(UserMessage.from(ImageContent.from(PNG, "image/png", ImageContent.DetailLevel.HIGH))), """
                {"model":"support","messages":[{"role":"user","content":[
                  {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo=","detail":"high"}}]}]}
                """),
                row("inline audio and PDF",
                        request(UserMessage.from(AudioContent.from("UklGRg==", "audio/wav"),
                                PdfFileContent.from("JVBERi0=", "application/pdf"))), """
                {"model":"support","messages":[{"role":"user","content":[
                  {"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}},
                  {"type":"file","file":{"filename":"document.pdf","file_data":"data:application/pdf;base64,JVBERi0="}}]}]}
                """),
                row("a tool round trip: the assistant's calls and the tool's result",
                        request(UserMessage.from("Weather in Oslo?"),
                                AiMessage.from(ToolExecutionRequest.builder().id("call_1").name("weather")
                                        .arguments("{\"city\":\"Oslo\"}").build()),
                                ToolExecutionResultMessage.from("call_1", "weather", "-3 C"),
                                AiMessage.from("It is -3 C.")), """
                {"model":"support","messages":[
                  {"role":"user","content":"Weather in Oslo?"},
                  {"role":"assistant","content":null,"tool_calls":[
                    {"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\\"city\\":\\"Oslo\\"}"}}]},
                  {"role":"tool","tool_call_id":"call_1","content":"-3 C"},
                  {"role":"assistant","content":"It is -3 C."}]}
                """),
                row("text beside a tool call",
                        request(AiMessage.from("Let me look.", List.of(ToolExecutionRequest.builder().id("c")
                                .name("t").arguments("{}").build()))), """
                {"model":"support","messages":[{"role":"assistant","content":"Let me look.","tool_calls":[
                  {"id":"c","type":"function","function":{"name":"t","arguments":"{}"}}]}]}
                """),
                row("a custom message is sent as its attributes",
                        request(CustomMessage.from(Map.of("role", "developer", "content", "Use metric units."))), """
                {"model":"support","messages":[{"role":"developer","content":"Use metric units."}]}
                """),
                row("sampling parameters, max tokens and stop sequences",
                        request(ChatRequestParameters.builder().temperature(0.2).topP(0.9).frequencyPenalty(0.5)
                                .presencePenalty(-0.5).maxOutputTokens(300).stopSequences(List.of("END", "###")).build(),
                                UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}],"temperature":0.2,"top_p":0.9,
                 "frequency_penalty":0.5,"presence_penalty":-0.5,"max_completion_tokens":300,"stop":["END","###"]}
                """),
                row("the model named is sent (the bound service refuses any but its route)",
                        request(ChatRequestParameters.builder().modelName("support").build(), UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}]}
                """),
                row("tools with a nested schema, and tool choice",
                        request(ChatRequestParameters.builder().toolSpecifications(List.of(
                                ToolSpecification.builder().name("book").description("Books a table")
                                        .parameters(JsonObjectSchema.builder()
                                                .addStringProperty("restaurant", "Its name")
                                                .addIntegerProperty("people")
                                                .addProperty("time", JsonEnumSchema.builder()
                                                        .enumValues("18:00", "20:00").build())
                                                .addProperty("diets", JsonArraySchema.builder()
                                                        .items(new JsonStringSchema()).build())
                                                .required("restaurant", "people")
                                                .additionalProperties(false).build()).build(),
                                ToolSpecification.builder().name("now").build()))
                                .toolChoice(ToolChoice.REQUIRED).build(), UserMessage.from("Book it")), """
                {"model":"support","messages":[{"role":"user","content":"Book it"}],
                 "tools":[
                   {"type":"function","function":{"name":"book","description":"Books a table","parameters":{
                     "type":"object","properties":{
                       "restaurant":{"type":"string","description":"Its name"},
                       "people":{"type":"integer"},
                       "time":{"type":"string","enum":["18:00","20:00"]},
                       "diets":{"type":"array","items":{"type":"string"}}},
                     "required":["restaurant","people"],"additionalProperties":false}}},
                   {"type":"function","function":{"name":"now","parameters":{"type":"object","properties":{}}}}],
                 "tool_choice":"required"}
                """),
                row("tool choice none",
                        request(ChatRequestParameters.builder().toolChoice(ToolChoice.NONE).build(),
                                UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}],"tool_choice":"none"}
                """),
                row("JSON mode", request(ChatRequestParameters.builder().responseFormat(ResponseFormat.JSON).build(),
                        UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}],"response_format":{"type":"json_object"}}
                """),
                row("text format", request(ChatRequestParameters.builder().responseFormat(ResponseFormat.TEXT).build(),
                        UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}],"response_format":{"type":"text"}}
                """),
                row("a JSON schema with definitions, references, anyOf and null",
                        request(ChatRequestParameters.builder().responseFormat(ResponseFormat.builder()
                                .type(ResponseFormatType.JSON).jsonSchema(JsonSchema.builder().name("Person")
                                        .rootElement(JsonObjectSchema.builder()
                                                .addProperty("name", new JsonStringSchema())
                                                .addProperty("age", JsonAnyOfSchema.builder()
                                                        .anyOf(new JsonIntegerSchema(), new JsonNullSchema()).build())
                                                .addProperty("parent", JsonReferenceSchema.builder()
                                                        .reference("Person").build())
                                                .definitions(Map.of("Person", JsonObjectSchema.builder()
                                                        .addStringProperty("name").build()))
                                                .build()).build()).build()).build(),
                                UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}],"response_format":{
                  "type":"json_schema","json_schema":{"name":"Person","strict":true,"schema":{
                    "type":"object","properties":{
                      "name":{"type":"string"},
                      "age":{"anyOf":[{"type":"integer"},{"type":"null"}]},
                      "parent":{"$ref":"#/$defs/Person"}},
                    "$defs":{"Person":{"type":"object","properties":{"name":{"type":"string"}}}}}}}}
                """),
                row("a raw schema is sent as written",
                        request(ChatRequestParameters.builder().responseFormat(ResponseFormat.builder()
                                .type(ResponseFormatType.JSON).jsonSchema(JsonSchema.builder().name("n")
                                        .rootElement(JsonRawSchema.from("{\"type\":\"object\",\"minProperties\":1}"))
                                        .build()).build()).build(), UserMessage.from("Hi")), """
                {"model":"support","messages":[{"role":"user","content":"Hi"}],"response_format":{
                  "type":"json_schema","json_schema":{"name":"n","strict":true,"schema":{"type":"object","minProperties":1}}}}
                """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void mapsToTheChatCompletionsBody(String name, ChatRequest request, String expected) {
        JsonObject body = BatonRequests.toBaton(request, ROUTE, false).body();

        assertEquals(parse(expected), body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void aStreamAsksForUsageInItsLastChunk(String name, ChatRequest request, String expected) {
        dev.baton.ChatRequest streamed = BatonRequests.toBaton(request, ROUTE, true);

        assertTrue(streamed.stream());
        JsonObject withoutStream = Json.createObjectBuilder(streamed.body()).remove("stream").remove("stream_options").build();
        assertEquals(parse(expected), withoutStream);
        assertEquals(Json.createObjectBuilder().add("include_usage", true).build(),
                streamed.body().getJsonObject("stream_options"));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("topK", request(ChatRequestParameters.builder().topK(5).build(), UserMessage.from("Hi")),
                        "topK"),
                Arguments.of("video", request(UserMessage.from(VideoContent.from("https://example.com/v.mp4"))),
                        "messages[0].contents[0]: VIDEO"),
                Arguments.of("audio by URL", request(UserMessage.from(AudioContent.from("https://example.com/a.wav"))),
                        "messages[0].contents[0]: audio must be inline"),
                Arguments.of("audio of another format", request(UserMessage.from(AudioContent.from("AA==", "audio/ogg"))),
                        "not `audio/ogg`"),
                Arguments.of("a PDF by URL", request(UserMessage.from(PdfFileContent.from("https://example.com/a.pdf"))),
                        "a PDF must be inline"),
                Arguments.of("a custom message without a role",
                        request(UserMessage.from("Hi"), CustomMessage.from(Map.of("content", "x"))),
                        "messages[1]: a CustomMessage must have a string attribute `role`"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWhatBatonCannotCarryNamingWhere(String name, ChatRequest request, String expected) {
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class,
                () -> BatonRequests.toBaton(request, ROUTE, false));

        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static Arguments row(String name, ChatRequest request, String expected) {
        return Arguments.of(name, request, expected);
    }

    static ChatRequest request(ChatMessage... messages) {
        return ChatRequest.builder().messages(messages).build();
    }

    static ChatRequest request(ChatRequestParameters parameters, ChatMessage... messages) {
        return ChatRequest.builder().messages(messages).parameters(parameters).build();
    }

    static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
