package dev.baton.bedrock;

import dev.baton.impl.translate.UntranslatableRequestException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OpenAI chat bodies to Converse bodies, and what is refused, field by field. */
class ConverseRequestsTest {

    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text.replace('\'', '"')))) {
            return reader.readObject();
        }
    }

    private static JsonObject converse(String openAi) {
        return ConverseRequests.toConverse(json(openAi));
    }

    @Test
    void systemAndDeveloperMessagesBecomeSystemAndTurnsAlternate() {
        JsonObject out = converse("{'messages':[{'role':'system','content':'Be brief.'},"
                + "{'role':'developer','content':[{'type':'text','text':'Use French.'}]},"
                + "{'role':'user','content':'Hi'},{'role':'user','content':'there'},"
                + "{'role':'assistant','content':'Salut'},{'role':'user','content':''}]}");

        assertEquals(json("{'s':[{'text':'Be brief.'},{'text':'Use French.'}]}").getJsonArray("s"),
                out.getJsonArray("system"));
        assertEquals(json("{'m':[{'role':'user','content':[{'text':'Hi'},{'text':'there'}]},"
                + "{'role':'assistant','content':[{'text':'Salut'}]}]}").getJsonArray("m"), out.getJsonArray("messages"));
    }

    @Test
    void parametersGoToInferenceConfig() {
        JsonObject out = converse("{'messages':[{'role':'user','content':'Hi'}],'max_completion_tokens':50,"
                + "'max_tokens':10,'temperature':1.5,'top_p':0.9,'stop':['END',''],'seed':4,'user':'u1',"
                + "'presence_penalty':0.1}");

        assertEquals(json("{'maxTokens':50,'temperature':1,'topP':0.9,'stopSequences':['END']}"),
                out.getJsonObject("inferenceConfig"));
        assertFalse(out.containsKey("seed") || out.containsKey("user"));
    }

    @Test
    void noParametersMeansNoInferenceConfig() {
        assertFalse(converse("{'messages':[{'role':'user','content':'Hi'}]}").containsKey("inferenceConfig"));
    }

    @Test
    void aDataUrlImageBecomesImageBytes() {
        JsonObject out = converse("{'messages':[{'role':'user','content':[{'type':'text','text':'What is it?'},"
                + "{'type':'image_url','image_url':{'url':'data:image/jpeg;base64,/9j/4AAQ'}}]}]}");

        assertEquals(json("{'image':{'format':'jpeg','source':{'bytes':'/9j/4AAQ'}}}"),
                out.getJsonArray("messages").getJsonObject(0).getJsonArray("content").getJsonObject(1));
    }

    @Test
    void toolsToolChoiceCallsAndResultsTranslate() {
        JsonObject out = converse("{'messages':[{'role':'user','content':'Weather?'},"
                + "{'role':'assistant','content':null,'tool_calls':[{'id':'call:1','type':'function',"
                + "'function':{'name':'get_weather','arguments':'{\\'city\\':\\'Oslo\\'}'}}]},"
                + "{'role':'tool','tool_call_id':'call:1','content':'12C'}],"
                + "'tools':[{'type':'function','function':{'name':'get_weather','description':'Weather',"
                + "'parameters':{'type':'object','properties':{'city':{'type':'string'}}}}},"
                + "{'type':'function','function':{'name':'now'}}],"
                + "'tool_choice':{'type':'function','function':{'name':'get_weather'}}}");

        assertEquals(json("{'toolUse':{'toolUseId':'call_1','name':'get_weather','input':{'city':'Oslo'}}}"),
                out.getJsonArray("messages").getJsonObject(1).getJsonArray("content").getJsonObject(0));
        assertEquals(json("{'toolResult':{'toolUseId':'call_1','content':[{'text':'12C'}]}}"),
                out.getJsonArray("messages").getJsonObject(2).getJsonArray("content").getJsonObject(0));
        JsonObject config = out.getJsonObject("toolConfig");
        assertEquals(json("{'toolSpec':{'name':'get_weather','description':'Weather','inputSchema':{'json':"
                + "{'type':'object','properties':{'city':{'type':'string'}}}}}}"), config.getJsonArray("tools")
                .getJsonObject(0));
        assertEquals(json("{'toolSpec':{'name':'now','inputSchema':{'json':{'type':'object','properties':{}}}}}"),
                config.getJsonArray("tools").getJsonObject(1));
        assertEquals(json("{'tool':{'name':'get_weather'}}"), config.getJsonObject("toolChoice"));
    }

    @ParameterizedTest
    @CsvSource({"auto,{'auto':{}}", "required,{'any':{}}"})
    void toolChoiceStrings(String choice, String expected) {
        JsonObject out = converse("{'messages':[{'role':'user','content':'Hi'}],'tool_choice':'" + choice + "',"
                + "'tools':[{'type':'function','function':{'name':'now'}}]}");

        assertEquals(json(expected), out.getJsonObject("toolConfig").getJsonObject("toolChoice"));
    }

    @Test
    void toolChoiceNoneWithoutToolHistoryLeavesTheToolsOut() {
        assertFalse(converse("{'messages':[{'role':'user','content':'Hi'}],'tool_choice':'none',"
                + "'tools':[{'type':'function','function':{'name':'now'}}]}").containsKey("toolConfig"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{'messages':[{'role':'user','content':'Hi'}],'n':2}|n",
            "{'messages':[{'role':'user','content':'Hi'}],'logprobs':true}|logprobs",
            "{'messages':[{'role':'user','content':'Hi'}],'top_logprobs':2}|top_logprobs",
            "{'messages':[{'role':'user','content':'Hi'}],'audio':{'voice':'alloy'}}|audio",
            "{'messages':[{'role':'user','content':'Hi'}],'modalities':['text','audio']}|modalities",
            "{'messages':[{'role':'user','content':'Hi'}],'response_format':{'type':'json_object'}}|response_format",
            "{'messages':[{'role':'user','content':'Hi'}],'functions':[]}|functions",
            "{'messages':[{'role':'user','content':'Hi'}],'parallel_tool_calls':false,'tools':[{'type':'function','function':{'name':'a'}}]}|parallel_tool_calls",
            "{'messages':[{'role':'user','content':[{'type':'image_url','image_url':{'url':'http://x/cat.png'}}]}]}|messages[0].content[0].image_url.url",
            "{'messages':[{'role':'user','content':[{'type':'image_url','image_url':{'url':'data:image/tiff;base64,AA'}}]}]}|messages[0].content[0].image_url.url",
            "{'messages':[{'role':'user','content':[{'type':'input_audio','input_audio':{}}]}]}|messages[0].content[0]",
            "{'messages':[{'role':'function','content':'x'}]}|messages[0].role",
            "{'messages':[]}|messages",
            "{'messages':[{'role':'system','content':'only'}]}|messages",
            "{'messages':[{'role':'user','content':'Hi'}],'max_tokens':0}|max_tokens",
            "{'messages':[{'role':'user','content':'Hi'}],'tool_choice':'sometimes'}|tool_choice",
            "{'messages':[{'role':'tool','tool_call_id':'a','content':'r'}]}|tools",
    })
    void refusesWhatCannotBeHonouredNamingTheField(String body, String field) {
        UntranslatableRequestException e = assertThrows(UntranslatableRequestException.class,
                () -> converse(body));

        assertEquals(field, e.field());
        assertTrue(e.getMessage().startsWith(field + ": "), e.getMessage());
    }

    @Test
    void aRefusalNeverEchoesTheContent() {
        UntranslatableRequestException e = assertThrows(UntranslatableRequestException.class, () -> converse(
                "{'messages':[{'role':'user','content':[{'type':'image_url','image_url':{'url':'http://secret.example/p?token=abc'}}]}]}"));

        assertFalse(e.getMessage().contains("secret.example") || e.getMessage().contains("abc"), e.getMessage());
    }
}
