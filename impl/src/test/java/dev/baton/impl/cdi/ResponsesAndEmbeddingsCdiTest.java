package dev.baton.impl.cdi;

import dev.baton.EmbeddingRequest;
import dev.baton.EmbeddingResponse;
import dev.baton.FailoverChatService;
import dev.baton.FailoverEmbeddingService;
import dev.baton.FailoverPolicy;
import dev.baton.ResponseEvent;
import dev.baton.ResponseRequest;
import dev.baton.ResponseResult;
import dev.baton.Route;
import dev.baton.exception.RequestRejectedException;
import dev.baton.exception.UpstreamUnavailableException;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.Embeddings;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static dev.baton.impl.cdi.BatonCdiTest.weld;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The Responses API and embeddings as CDI beans see them: injected, bound by {@code @Route}, under {@code @FailoverPolicy}. */
class ResponsesAndEmbeddingsCdiTest {

    private static final String EMBEDDING = "text-embedding-3-small";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    final ConfigProperties config = new ConfigProperties();

    @ApplicationScoped
    public static class Assistant {
        @Inject
        @Route("drafts")
        FailoverChatService drafts;

        @Inject
        FailoverEmbeddingService embeddings;

        @Inject
        @Route("vectors")
        @FailoverPolicy(sameTargetRetries = 0)
        FailoverEmbeddingService vectors;

        public ResponseResult respond(String input) {
            return drafts.respond(ResponseRequest.fromJson(Json.createObjectBuilder().add("input", input).build()));
        }

        public Flow.Publisher<ResponseEvent> stream(String input) {
            return drafts.streamResponse(ResponseRequest.fromJson(Json.createObjectBuilder().add("input", input)
                    .add("stream", true).build()));
        }

        public EmbeddingResponse embed(String model, String text) {
            return embeddings.embed(EmbeddingRequest.of(model, List.of(text)));
        }

        public EmbeddingResponse embedOnRoute(String text) {
            return vectors.embed(EmbeddingRequest.fromJson(Json.createObjectBuilder()
                    .add("input", Json.createArrayBuilder().add(text)).build()));
        }
    }

    @BeforeEach
    void configure() {
        for (String name : List.of("a", "b")) {
            config.set("baton.connections." + name + ".provider", "openai");
            config.set("baton.connections." + name + ".base-url", sim.baseUrl(name));
            config.set("baton.connections." + name + ".models", "m, " + EMBEDDING);
            config.set("baton.connections." + name + ".responses", "native");
        }
        config.set("baton.routes.drafts.targets", "a/m, b/m");
        config.set("baton.routes.vectors.targets", "a/" + EMBEDDING + ", b/" + EMBEDDING);
        config.set("baton.defaults.retry-backoff", "1ms");
    }

    @Test
    void aResponseGoesToTheBoundRouteAndFailsOver() throws Exception {
        sim.account("a").setDefault(Behavior.overloaded());
        try (WeldContainer container = weld(Assistant.class).initialize()) {
            Assistant assistant = container.select(Assistant.class).get();

            ResponseResult answer = assistant.respond("hi");
            assertEquals("Hello from b.", answer.outputText());
            assertEquals("drafts", answer.servedBy().routeName());
            assertEquals("completed", answer.status());
            assertEquals("m", sim.account("b").lastRequest().json().getString("model"));

            List<ResponseEvent> events = new ArrayList<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            assistant.stream("hi").subscribe(new Flow.Subscriber<>() {
                public void onSubscribe(Flow.Subscription s) {
                    s.request(Long.MAX_VALUE);
                }

                public void onNext(ResponseEvent event) {
                    events.add(event);
                }

                public void onError(Throwable t) {
                    done.completeExceptionally(t);
                }

                public void onComplete() {
                    done.complete(null);
                }
            });
            done.get(30, TimeUnit.SECONDS);
            assertEquals("response.completed", events.get(events.size() - 1).type());
            assertEquals("Hello from b.", events.stream().map(ResponseEvent::textDelta).reduce("", String::concat));
        }
    }

    @Test
    void embeddingsFailOverAndTheRoutesPolicyApplies() {
        sim.account("a").setDefault(Behavior.serverError());
        try (WeldContainer container = weld(Assistant.class).initialize()) {
            Assistant assistant = container.select(Assistant.class).get();

            EmbeddingResponse answer = assistant.embed(EMBEDDING, "hello");
            assertEquals("b", answer.servedBy().connection());
            assertArrayEquals(Embeddings.vector(EMBEDDING, "hello", 1536), answer.vectors().get(0));
            assertEquals(2, sim.account("a").requestCount(), "the default policy retries a once");

            sim.account("a").reset().setDefault(Behavior.serverError());
            assertEquals("b", assistant.embedOnRoute("hello").servedBy().connection());
            assertEquals(1, sim.account("a").requestCount(), "@FailoverPolicy(sameTargetRetries = 0) at the injection point");
            assertEquals("vectors", assistant.embedOnRoute("x").servedBy().routeName());
        }
    }

    @Test
    void embeddingsNeverFallBackToAnotherModel() {
        var e = assertThrows(RequestRejectedException.class, () -> EmbeddingRequest.fromJson(Json.createObjectBuilder()
                .add("model", EMBEDDING).add("input", "x").add("fallbacks", Json.createArrayBuilder().add("m")).build()));
        assertEquals("fallbacks", e.param());
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.serverError());
        try (WeldContainer container = weld(Assistant.class).initialize()) {
            Assistant assistant = container.select(Assistant.class).get();
            assertThrows(UpstreamUnavailableException.class, () -> assistant.embed(EMBEDDING, "x"));
        }
    }
}
