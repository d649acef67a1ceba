package dev.baton.impl.contract;

import dev.baton.ChatChunk;
import dev.baton.FailureKind;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTarget;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every provider adapter promises the engine, checked against the simulator over real HTTP:
 * OpenAI-shaped answers and chunks, classified failures, streams that complete only when the
 * provider finished, and cancellation that closes the upstream connection. A new adapter extends
 * this class, names its factory and says how to build its target.
 */
abstract class AdapterContract {

    static final String KEY = "sk-contract-0123456789abcdef";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    /** Brings the adapter under test. */
    abstract ProviderAdapterFactory factory();

    /** Where the simulator serves {@code account} in this adapter's wire format. */
    URI baseUrl(String account) {
        return URI.create(sim.baseUrl(account));
    }

    /** A target for model {@code m} at {@code base}; adapters with provider settings add them. */
    ProviderTarget target(URI base) {
        return new ProviderTarget("contract", factory().id(), base, KEY, "m", Map.of());
    }

    private ProviderTarget target(String account) {
        return target(baseUrl(account));
    }

    private ProviderAdapter adapter() {
        return factory().create(Adapters.context(EngineFixture.HTTP, 8 * 1024 * 1024, new Redactor(List.of(KEY)), Clock.systemUTC()));
    }

    private static JsonObject body(boolean stream) {
        return Json.createObjectBuilder().add("model", "ignored")
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "Say hello.")))
                .add("max_tokens", 100).add("stream", stream).build();
    }

    private JsonObject complete() throws Exception {
        return adapter().complete(target("a"), body(false), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
    }

    private ProviderException completeFails() {
        ExecutionException e = assertThrows(ExecutionException.class, this::complete);
        return assertInstanceOf(ProviderException.class, e.getCause());
    }

    /** Collects a stream; the future fails with what the publisher signalled. */
    private CompletableFuture<List<JsonObject>> stream(Flow.Subscription[] holder) {
        CompletableFuture<List<JsonObject>> done = new CompletableFuture<>();
        List<JsonObject> chunks = new ArrayList<>();
        adapter().stream(target("a"), body(true), Duration.ofSeconds(5)).subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                holder[0] = s;
                s.request(1);
            }

            @Override
            public void onNext(JsonObject item) {
                chunks.add(item);
                holder[0].request(1);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(chunks);
            }
        });
        return done;
    }

    private static String text(List<JsonObject> chunks) {
        StringBuilder out = new StringBuilder();
        chunks.forEach(c -> out.append(new ChatChunk(c, null, null).contentDelta()));
        return out.toString();
    }

    @Test
    void answersInTheOpenAiShape() throws Exception {
        JsonObject answer = complete();

        JsonObject message = answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message");
        assertEquals("Hello from a.", message.getString("content"));
        assertEquals("stop", answer.getJsonArray("choices").getJsonObject(0).getString("finish_reason"));
        assertTrue(answer.getJsonObject("usage").getInt("prompt_tokens") > 0);
    }

    @Test
    void streamsChunksInTheOpenAiShapeAndCompletesWhenTheProviderFinished() throws Exception {
        List<JsonObject> chunks = stream(new Flow.Subscription[1]).get(10, TimeUnit.SECONDS);

        assertEquals("Hello from a.", text(chunks));
        assertEquals("chat.completion.chunk", chunks.get(0).getString("object"));
        assertTrue(chunks.stream().anyMatch(c -> "stop".equals(new ChatChunk(c, null, null).finishReason())));
    }

    @Test
    void aStreamCutBeforeTheProviderFinishedIsAnErrorNotACompletion() {
        sim.account("a").enqueue(Behavior.ok().cutAfter(4));

        ExecutionException e = assertThrows(ExecutionException.class,
                () -> stream(new Flow.Subscription[1]).get(10, TimeUnit.SECONDS));

        assertEquals(FailureKind.CONNECTION, assertInstanceOf(ProviderException.class, e.getCause()).failure().kind());
    }

    @Test
    void aRateLimitCarriesItsRetryAfter() {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(7)));

        ProviderException failure = completeFails();

        assertEquals(FailureKind.RATE_LIMIT, failure.failure().kind());
        assertEquals(429, failure.failure().httpStatus());
        assertNotNull(failure.failure().retryAfter());
        assertTrue(failure.failure().retryAfter().getSeconds() >= 6, failure.failure().retryAfter()::toString);
    }

    @Test
    void anOverloadIsAServerError() {
        sim.account("a").enqueue(Behavior.overloaded());

        assertEquals(FailureKind.SERVER_ERROR, completeFails().failure().kind());
    }

    @Test
    void aRejectedKeyIsACredentialFailureAndTheKeyIsNeverInTheMessage() {
        sim.account("a").enqueue(Behavior.unauthorized());

        ProviderException failure = completeFails();

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertFalse(failure.getMessage().contains(KEY));
        assertFalse(failure.getMessage().contains("sk-proj"), failure.getMessage());
    }

    @Test
    void anUnknownModelIsNotServed() {
        sim.account("a").enqueue(Behavior.modelNotFound());

        assertEquals(FailureKind.MODEL_NOT_SERVED, completeFails().failure().kind());
    }

    @Test
    void anUnreachableHostIsAConnectionFailure() throws Exception {
        int closedPort;
        try (var socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ProviderTarget nowhere = target(URI.create("http://127.0.0.1:" + closedPort + "/v1"));

        ExecutionException e = assertThrows(ExecutionException.class,
                () -> adapter().complete(nowhere, body(false), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS));

        assertEquals(FailureKind.CONNECTION, assertInstanceOf(ProviderException.class, e.getCause()).failure().kind());
    }

    @Test
    void cancellingAStreamClosesTheUpstreamConnection() throws Exception {
        sim.account("a").enqueue(Behavior.reply("one two three four five six seven eight")
                .eventInterval(Duration.ofMillis(200)));
        Flow.Subscription[] subscription = new Flow.Subscription[1];

        stream(subscription);
        assertTrue(sim.account("a").awaitRequests(1, Duration.ofSeconds(5)), "the exchange started");
        subscription[0].cancel();

        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(5)));
    }

    @Test
    void aToolCallArrivesAsAnOpenAiToolCall() throws Exception {
        sim.account("a").enqueue(Behavior.toolCall("get_weather", "{\"city\":\"Oslo\"}"));

        JsonObject message = complete().getJsonArray("choices").getJsonObject(0).getJsonObject("message");

        JsonObject function = message.getJsonArray("tool_calls").getJsonObject(0).getJsonObject("function");
        assertEquals("get_weather", function.getString("name"));
        assertTrue(function.getString("arguments").contains("Oslo"));
    }
}
