package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Embeddings through the engine over real HTTP: failover between accounts of one model, the vectors untouched. */
class EmbeddingsTest {

    private static final String MODEL = "text-embedding-3-small";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    /** Accounts a and b serve the embedding model; route "mixed" would reach two models. */
    private FailoverEngine start() {
        Map<String, String> props = connections(sim.simulator(), "openai", MODEL + ", text-embedding-3-large",
                List.of("a", "b"));
        props.putAll(connections(sim.simulator(), "anthropic", MODEL, List.of("claude")));
        props.put("baton.routes.vectors.targets", "claude/" + MODEL + ", a/" + MODEL + ", b/" + MODEL);
        props.put("baton.routes.vectors.retry-backoff", "10ms");
        props.put("baton.routes.mixed.targets", "a/" + MODEL + ", b/text-embedding-3-large");
        return EngineFixture.engine(props, new VirtualTime());
    }

    private static Call call(String model, String format) {
        JsonObject body = Json.createObjectBuilder().add("model", model)
                .add("input", Json.createArrayBuilder().add("first text").add("second text"))
                .add("encoding_format", format).build();
        return new Call(ChatRequest.fromJson(body), PolicyOverride.NONE, false, null, Api.EMBEDDINGS);
    }

    @Test
    void embeddingsFailOverBetweenAccountsAndKeepTheProvidersBytes() throws Exception {
        FailoverEngine engine = start();
        sim.account("a").setDefault(Behavior.serverError());

        ChatResponse answer = engine.complete(call("vectors", "base64")).join();

        assertEquals("b", answer.servedBy().connection());
        String direct = direct("b", call(MODEL, "base64").request().body());
        assertEquals(Json.createReader(new java.io.StringReader(direct)).readObject().getJsonArray("data").toString(),
                answer.body().getJsonArray("data").toString(), "the vectors exactly as the provider sent them");
        RequestRecord record = engine.findRecord(answer.requestId()).orElseThrow();
        assertEquals(List.of("claude", "a", "b"), record.attempts().stream().map(at -> at.connection()).distinct()
                .toList(), "Anthropic serves no embeddings: model_not_served, and on to the next");
        assertEquals("model_not_served", record.attempts().get(0).kind().toString().toLowerCase());
        assertNotNull(answer.cost(), "priced at the list's input rate");
        assertEquals("b", sim.account("b").lastRequest().account());
        assertTrue(sim.account("b").lastRequest().path().endsWith("/v1/embeddings"));
    }

    @Test
    void aRouteOfTwoModelsIsRefused() {
        FailoverEngine engine = start();

        var e = assertThrows(java.util.concurrent.CompletionException.class,
                () -> engine.complete(call("mixed", "float")).join());

        var refused = assertInstanceOf(RequestRejectedException.class, e.getCause());
        assertEquals(400, refused.httpStatus());
        assertTrue(refused.getMessage().contains("do not mix"), refused.getMessage());
        assertEquals(0, sim.account("a").requestCount());
    }

    @Test
    void aStreamOfEmbeddingsIsNeverOpened() {
        FailoverEngine engine = start();
        EngineFixture.Collector collector = new EngineFixture.Collector();

        engine.stream(call(MODEL, "float")).subscribe(collector);

        assertInstanceOf(IllegalArgumentException.class, ResponsesApiTest.failure(collector.done));
    }

    /** The simulator's own answer to {@code body}, straight from account {@code account}. */
    private static String direct(String account, JsonObject body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(sim.simulator().baseUrl(account) + "/embeddings"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }
}
