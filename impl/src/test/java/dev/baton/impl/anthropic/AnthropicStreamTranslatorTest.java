package dev.baton.impl.anthropic;

import dev.baton.ChatChunk;
import dev.baton.FailureKind;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.wire.OpenAiShape;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static dev.baton.impl.anthropic.TestJson.lines;
import static dev.baton.impl.anthropic.TestJson.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream translation table of docs/providers.md. Each stream is Anthropic event data, one JSON
 * object per line (the SSE event name is the data's type), and the OpenAI chunks expected from it.
 */
class AnthropicStreamTranslatorTest {

    private static final String TEXT_STREAM = """
            {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}
            {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
            {"type":"ping"}
            {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}
            {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}
            {"type":"content_block_stop","index":0}
            {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}
            {"type":"message_stop"}
            """;

    @Test
    void aTextStreamBecomesARoleChunkContentChunksAndAFinishChunk() {
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator(false);
        assertEquals(lines("""
                {"id":"msg_1","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}
                {"id":"msg_1","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}
                {"id":"msg_1","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}
                {"id":"msg_1","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}
                """), feed(translator, TEXT_STREAM));
        assertTrue(translator.finished());
    }

    @Test
    void theRoleChunkCarriesNoOutputSoItIsNotTheCommitPoint() {
        List<JsonObject> chunks = feed(new AnthropicStreamTranslator(false), TEXT_STREAM);
        assertFalse(OpenAiShape.hasOutput(chunks.get(0)));
        assertTrue(OpenAiShape.hasOutput(chunks.get(1)));
        assertEquals("stop", new ChatChunk(chunks.get(3), null, null).finishReason());
    }

    @Test
    void twoToolCallsGetOpenAiIndexesZeroAndOneWhileAnthropicIndexesAreOneAndTwo() {
        assertEquals(lines("""
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"content":"Checking both."},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"toolu_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}}]},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" \\"Oslo\\"}"}}]},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"toolu_b","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\\"city\\": \\"Rome\\"}"}}]},"finish_reason":null}]}
                {"id":"msg_2","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
                """), feed(new AnthropicStreamTranslator(false), """
                {"type":"message_start","message":{"id":"msg_2","model":"claude-x","content":[],"usage":{"input_tokens":40,"output_tokens":1}}}
                {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
                {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking both."}}
                {"type":"content_block_stop","index":0}
                {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"get_weather","input":{}}}
                {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}
                {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\":"}}
                {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \\"Oslo\\"}"}}
                {"type":"content_block_stop","index":1}
                {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"get_weather","input":{}}}
                {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Rome\\"}"}}
                {"type":"content_block_stop","index":2}
                {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":60}}
                {"type":"message_stop"}
                """));
    }

    @Test
    void thinkingBecomesReasoningContentAndSignaturesAreDropped() {
        assertEquals(lines("""
                {"id":"msg_3","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}
                {"id":"msg_3","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"reasoning_content":"Two plus two"},"finish_reason":null}]}
                {"id":"msg_3","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"reasoning_content":" is four."},"finish_reason":null}]}
                {"id":"msg_3","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{"content":"4"},"finish_reason":null}]}
                {"id":"msg_3","object":"chat.completion.chunk","created":0,"model":"claude-x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}
                """), feed(new AnthropicStreamTranslator(false), """
                {"type":"message_start","message":{"id":"msg_3","model":"claude-x","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}
                {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}
                {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two plus two"}}
                {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" is four."}}
                {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}
                {"type":"content_block_stop","index":0}
                {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}
                {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"4"}}
                {"type":"content_block_stop","index":1}
                {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30}}
                {"type":"message_stop"}
                """));
    }

    @Test
    void aUsageChunkComesAtMessageStopWhenAskedWithCacheTokensAndTheLastOutputCount() {
        assertEquals(lines("""
                {"id":"msg_4","object":"chat.completion.chunk","created":1726012687,"model":"claude-x","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null}
                {"id":"msg_4","object":"chat.completion.chunk","created":1726012687,"model":"claude-x","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"usage":null}
                {"id":"msg_4","object":"chat.completion.chunk","created":1726012687,"model":"claude-x","choices":[{"index":0,"delta":{},"finish_reason":"length"}],"usage":null}
                {"id":"msg_4","object":"chat.completion.chunk","created":1726012687,"model":"claude-x","choices":[],"usage":{"prompt_tokens":3412,"completion_tokens":88,"total_tokens":3500,"prompt_tokens_details":{"cached_tokens":2000}}}
                """), feed(new AnthropicStreamTranslator(true, 1726012687L), """
                {"type":"message_start","message":{"id":"msg_4","model":"claude-x","content":[],"usage":{"input_tokens":412,"cache_creation_input_tokens":1000,"cache_read_input_tokens":2000,"output_tokens":1}}}
                {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
                {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}
                {"type":"content_block_stop","index":0}
                {"type":"message_delta","delta":{},"usage":{"output_tokens":50}}
                {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":88}}
                {"type":"message_stop"}
                """));
    }

    @Test
    void noUsageChunkAndNoUsageFieldWhenNotAsked() {
        List<JsonObject> chunks = feed(new AnthropicStreamTranslator(false), TEXT_STREAM);
        assertEquals(4, chunks.size());
        chunks.forEach(chunk -> assertFalse(chunk.containsKey("usage"), chunk::toString));
    }

    @ParameterizedTest(name = "stop_reason {0} ends the stream with finish_reason {1}")
    @CsvSource(textBlock = """
            end_turn,                      stop
            stop_sequence,                 stop
            max_tokens,                    length
            tool_use,                      tool_calls
            refusal,                       content_filter
            pause_turn,                    stop
            model_context_window_exceeded, length
            some_future_reason,            stop
            """)
    void mapsEveryStopReason(String stopReason, String finishReason) {
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator(false);
        feed(translator, "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_5\",\"model\":\"claude-x\"}}");
        List<JsonObject> chunks = translator.onEvent("message_delta",
                obj("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason + "\"},\"usage\":{\"output_tokens\":1}}"));
        assertEquals(finishReason, new ChatChunk(chunks.get(0), null, null).finishReason());
    }

    @Test
    void pingsStopsUnknownEventsAndUnknownDeltasEmitNothing() {
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator(true);
        feed(translator, "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_6\",\"model\":\"claude-x\"}}");
        assertEquals(List.of(), translator.onEvent("ping", obj("{\"type\":\"ping\"}")));
        assertEquals(List.of(), translator.onEvent("content_block_stop", obj("{\"type\":\"content_block_stop\",\"index\":0}")));
        assertEquals(List.of(), translator.onEvent("some_future_event", obj("{\"type\":\"some_future_event\"}")));
        assertEquals(List.of(), translator.onEvent("content_block_delta",
                obj("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"citations_delta\",\"citation\":{}}}")));
        assertEquals(List.of(), translator.onEvent("message_delta",
                obj("{\"type\":\"message_delta\",\"delta\":{},\"usage\":{\"output_tokens\":3}}")));
        assertFalse(translator.finished());
    }

    @Test
    void theEventNameFallsBackToTheDataType() {
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator(false);
        List<JsonObject> chunks = translator.onEvent(null, obj("{\"type\":\"message_start\",\"message\":{\"id\":\"msg_7\",\"model\":\"claude-x\"}}"));
        assertEquals("msg_7", chunks.get(0).getString("id"));
    }

    @Test
    void theStreamIsNotFinishedUntilMessageStop() {
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator(false);
        String[] events = TEXT_STREAM.strip().split("\n");
        for (int i = 0; i < events.length - 1; i++) {
            feed(translator, events[i]);
            assertFalse(translator.finished(), events[i]);
        }
        feed(translator, events[events.length - 1]);
        assertTrue(translator.finished());
    }

    @ParameterizedTest(name = "an error event of type {0} fails the attempt as {2}")
    @CsvSource(nullValues = "-", textBlock = """
            overloaded_error, -,                            SERVER_ERROR
            api_error,        -,                            SERVER_ERROR
            rate_limit_error, -,                            RATE_LIMIT
            rate_limit_error, enforced_spend_limit_reached, SPEND_LIMIT
            """)
    void anErrorEventThrowsAClassifiedProviderException(String type, String errorCode, FailureKind kind) {
        AnthropicStreamTranslator translator = new AnthropicStreamTranslator(false);
        feed(translator, "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_8\",\"model\":\"claude-x\"}}");
        String details = errorCode == null ? "" : ",\"details\":{\"error_code\":\"" + errorCode + "\"}";
        JsonObject error = obj("{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"Overloaded\"" + details + "}}");
        ProviderFailure failure = assertThrows(ProviderException.class, () -> translator.onEvent("error", error)).failure();
        assertEquals(kind, failure.kind());
        assertEquals(0, failure.httpStatus());
        assertEquals(type, failure.type());
        assertNull(failure.code());
        assertEquals("error event in stream: Overloaded", failure.message());
        assertNull(failure.retryAfter());
        assertFalse(translator.finished());
    }

    /** Feeds each line as one event named by its type; returns every chunk emitted, in order. */
    private static List<JsonObject> feed(AnthropicStreamTranslator translator, String events) {
        List<JsonObject> chunks = new ArrayList<>();
        for (JsonObject data : lines(events)) {
            chunks.addAll(translator.onEvent(data.getString("type"), data));
        }
        return chunks;
    }
}
