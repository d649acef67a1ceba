package dev.baton.wire;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Read from the text or from the tree, a chunk or an answer gives the same facts. */
class OpenAiShapeTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}",
            "{\"choices\":[{\"delta\":{\"refusal\":\"no\"}}]}",
            "{\"choices\":[{\"delta\":{\"reasoning_content\":\"think\"}}]}",
            "{\"choices\":[{\"delta\":{\"reasoning\":\"\"}}]}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[]}}]}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\"\"}}]}}]}",
            "{\"choices\":[{\"delta\":{\"content\":null}},{\"delta\":{\"content\":\"second\"},\"finish_reason\":\"length\"}]}",
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5,\"total_tokens\":8}}",
            "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":7}],\"usage\":null}",
            "{\"choices\":{\"delta\":{\"content\":\"not an array\"}}}",
            "{\"choices\":[\"odd\",{\"delta\":\"odd\"},{\"delta\":{\"content\":\"\\u00e9\"}}]}",
            "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"whole\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":1,\"prompt_tokens_details\":{\"cached_tokens\":0}}}",
            "{ \"choices\" : [ { \"delta\" : { } , \"finish_reason\" : \"stop\" } , { \"delta\" : { \"tool_calls\" : [ ] } } ] }",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[ {\"index\":0} ]},\"finish_reason\":\"a\",\"finish_reason\":\"b\"}]}",
            "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"delta\":{\"content\":\"\"}},{\"fin\\u0069sh_reason\":\"stop\"}]}",
            "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\" :\n \"stop\"}]}",
            "{\"choices\":[{\"delta\":{\"content\":\"say \\\"finish_reason\\\":\\\"x\\\"\"},\"finish_reason\":null}]}",
            "{\"choices\":[{\"delta\":{\"finish_reason\":\"nested\"},\"finish_reason\":null}]}",
            "{\"my_finish_reason\":\"x\",\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}",
            "{}"})
    void textAndTreeAgree(String text) {
        JsonObject tree = Json.createReader(new StringReader(text)).readObject();
        RawJsonObject raw = RawJsonObject.parse(text);

        assertEquals(OpenAiShape.finishReason(tree), OpenAiShape.finishReason(raw), "finish reason");
        assertEquals(OpenAiShape.hasOutput(tree), OpenAiShape.hasOutput(raw), "has output");
        assertEquals(OpenAiShape.usage(tree), OpenAiShape.usage(raw), "usage");
    }

    @Test
    void aChunkWhoseFinishReasonIsNullIsAnsweredWithoutReadingItsChoices() {
        assertFalse(mayNameAFinishReason(
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}"));
        assertFalse(mayNameAFinishReason("{\"choices\":[{\"delta\":{\"content\":\"\\\"finish_reason\\\":\\\"\"}}]}"));
        assertFalse(mayNameAFinishReason("{\"choices\":[{\"delta\":{\"content\":\"caf\\u00e9\"},\"finish_reason\":null}]}"),
                "an escape in a value");
        assertTrue(mayNameAFinishReason("{\"choices\":[{\"delta\":{},\"finish_reason\" : \"stop\"}]}"));
        assertTrue(mayNameAFinishReason("{\"choices\":[{\"fin\\u0069sh_reason\":\"stop\"}]}"), "an escape in a name");
        assertFalse(mayNameAFinishReason("{\"finish_reasons\":\"stop\",\"finish_reason\":{\"a\":\"b\"}}"));
    }

    private static boolean mayNameAFinishReason(String text) {
        return RawJsonObject.of(text).mayNameAFinishReason;
    }
}
