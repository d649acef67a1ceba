package dev.baton.impl.gemini;

import dev.baton.FailureKind;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTarget;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.testkit.RecordedRequest;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the gemini adapter adds to the OpenAI wire, over loopback HTTP against the simulator's Gemini API. */
class GeminiAdapterTest {

    private static final String KEY = "AIzaSyD-sim-gemini-key-0123456789abcdef";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final ProviderAdapter adapter = new GeminiAdapterFactory().create(Adapters.context(EngineFixture.HTTP,
            1 << 20, new Redactor(List.of(KEY)), Clock.systemUTC()));

    private static ProviderTarget target() {
        return new ProviderTarget("gemini", GeminiAdapter.ID, URI.create(sim.geminiBaseUrl("g")), KEY,
                "gemini-2.5-flash", Map.of());
    }

    private static JsonObject body(boolean stream) {
        return Json.createObjectBuilder().add("model", "google/gemini-2.5-flash")
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "Say hello.")))
                .add("stream", stream).build();
    }

    private ProviderException fails() {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> adapter.complete(target(), body(false), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS));
        return assertInstanceOf(ProviderException.class, e.getCause());
    }

    @Test
    void sendsTheKeyAsABearerTokenAndNeverInTheUrl() throws Exception {
        adapter.complete(target(), body(false), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);

        RecordedRequest request = sim.account("g").lastRequest();
        assertEquals("/g/v1beta/openai/chat/completions", request.path());
        assertEquals(Optional.of("Bearer " + KEY), request.header("authorization"));
        assertEquals(Optional.empty(), request.queryParameter("key"));
        assertEquals("gemini-2.5-flash", request.json().getString("model"));
    }

    @Test
    void aWrongKeyIsACredentialFailureThoughGoogleSays400() {
        sim.account("g").enqueue(Behavior.unauthorized());

        ProviderException failure = fails();

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertEquals(400, failure.failure().httpStatus());
        assertEquals("API_KEY_INVALID", failure.failure().code());
        assertFalse(failure.getMessage().contains(KEY));
    }

    @Test
    void aRegionRefusalIsAnInvalidRequestAndADeadlineATimeout() {
        sim.account("g").enqueue(Behavior.forbidden(), Behavior.gatewayTimeout());

        assertEquals(FailureKind.INVALID_REQUEST, fails().failure().kind());
        assertEquals(FailureKind.TIMEOUT, fails().failure().kind());
    }

    @Test
    void aQuotaInsideAStreamIsARateLimit() {
        sim.account("g").enqueue(Behavior.ok().streamErrorAfter(2, "RESOURCE_EXHAUSTED", null, "Quota exceeded."));
        CompletableFuture<Void> done = new CompletableFuture<>();
        List<JsonObject> chunks = new ArrayList<>();
        adapter.stream(target(), body(true), Duration.ofSeconds(5)).subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(JsonObject item) {
                chunks.add(item);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });

        ExecutionException e = assertThrows(ExecutionException.class, () -> done.get(10, TimeUnit.SECONDS));
        ProviderException failure = assertInstanceOf(ProviderException.class, e.getCause());
        assertEquals(FailureKind.RATE_LIMIT, failure.failure().kind());
        assertTrue(chunks.size() >= 1, "the chunks before the error arrived");
    }
}
