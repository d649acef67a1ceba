package dev.baton.system;

import dev.baton.testkit.Behavior;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streams through LangChain4j's {@code OpenAiStreamingChatModel} (its default JDK HTTP client), which reads SSE its
 * own way: it ignores an {@code error} field in a data event (it goes to {@code onUnmappedRawEvent}) and fails only on
 * an event named {@code error} or a broken body. Whatever the body, it calls {@code onCompleteResponse} when the body
 * ends, so what Baton can promise is that {@code onError} comes first.
 */
class LangChain4jIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-langchain4j.war");
    }

    @Test
    void completesANormalStreamThroughOnCompleteResponse() throws Exception {
        Handler handler = stream();

        assertEquals("complete", handler.end.get(Gateway.TIMEOUT.toSeconds(), TimeUnit.SECONDS), handler.calls::toString);
        assertEquals("Hello from primary.", handler.text.toString());
        assertEquals(List.of("complete:STOP"), handler.calls);
    }

    @Test
    void reportsAStreamBrokenAfterItsFirstTokensThroughOnErrorFirst() throws Exception {
        simulator.account("primary").enqueue(Behavior.ok().cutAfter(2));

        Handler handler = stream();

        assertEquals("error", handler.end.get(Gateway.TIMEOUT.toSeconds(), TimeUnit.SECONDS), handler.calls::toString);
        assertEquals("Hello", handler.text.toString(), "only what arrived before the break");
        assertTrue(handler.calls.get(0).contains("stream_interrupted"), () -> "Baton's error: " + handler.calls);
        assertEquals(0, simulator.account("standby").requestCount(), "nothing is restarted after the commit point");
    }

    private Handler stream() {
        OpenAiStreamingChatModel model = OpenAiStreamingChatModel.builder()
                .baseUrl(gateway.uri("v1").toString())
                .apiKey(Gateway.KEY)
                .modelName(Gateway.ROUTE)
                .timeout(Gateway.TIMEOUT)
                .build();
        Handler handler = new Handler();
        model.chat("Say hello.", handler);
        return handler;
    }

    /** Records the callbacks in order; {@link #end} is whichever of complete or error came first. */
    private static final class Handler implements StreamingChatResponseHandler {

        final StringBuffer text = new StringBuffer();
        final List<String> calls = new CopyOnWriteArrayList<>();
        final CompletableFuture<String> end = new CompletableFuture<>();

        @Override
        public void onPartialResponse(String partial) {
            text.append(partial);
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
            calls.add("complete:" + response.finishReason());
            end.complete("complete");
        }

        @Override
        public void onError(Throwable error) {
            calls.add("error:" + error);
            end.complete("error");
        }
    }
}
