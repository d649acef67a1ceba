package dev.baton.vertex;

import dev.baton.FailureKind;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.contract.Collect;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTarget;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.baton.testkit.RecordedRequest;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Provider vertex against the simulated Vertex AI over loopback HTTP: the wire of each route, the access tokens
 * (fetched by Google's library from the simulator's token endpoint, refreshed off the request path) and how a missing,
 * refused or expired token fails.
 */
class VertexAdapterTest {

    private static final String CLAUDE = "claude-sonnet-4-5@20250929";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @TempDir
    Path dir;

    private final List<VertexAdapter> adapters = new ArrayList<>();

    @AfterEach
    void close() {
        adapters.forEach(VertexAdapter::close);
    }

    private VertexAdapter adapter() {
        VertexAdapter adapter = (VertexAdapter) new VertexAdapterFactory().create(Adapters.context(EngineFixture.HTTP,
                1 << 20, new Redactor(List.of()), Clock.systemUTC()));
        adapters.add(adapter);
        return adapter;
    }

    private Path key() {
        return sim.google().writeServiceAccountKey(dir.resolve("key.json"));
    }

    private static ProviderTarget target(String model, Path key) {
        return new ProviderTarget("vertex", VertexAdapter.ID, URI.create(sim.vertexBaseUrl("v")), "", model, Map.of(),
                List.of(), Map.of("project", "sim-project", "region", "us-east5", "credentials-file", key.toString()));
    }

    private static JsonObject body(boolean stream) {
        return Json.createObjectBuilder().add("model", "ignored")
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "Say hello.")))
                .add("max_tokens", 50).add("stream", stream).build();
    }

    private static JsonObject complete(VertexAdapter adapter, ProviderTarget target) throws Exception {
        return adapter.complete(target, body(false), TIMEOUT).get(10, TimeUnit.SECONDS);
    }

    private static ProviderException fails(VertexAdapter adapter, ProviderTarget target, Duration timeout) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> adapter.complete(target, body(false), timeout).get(20, TimeUnit.SECONDS));
        return assertInstanceOf(ProviderException.class, e.getCause());
    }

    @Test
    void claudeGoesToRawPredictWithTheModelInTheUrlAndVertexsAnthropicVersion() throws Exception {
        JsonObject answer = complete(adapter(), target(CLAUDE, key()));

        assertEquals("Hello from v.", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message")
                .getString("content"));
        RecordedRequest request = sim.account("v").lastRequest();
        assertEquals("/v/v1/projects/sim-project/locations/us-east5/publishers/anthropic/models/" + CLAUDE
                + ":rawPredict", request.path());
        assertFalse(request.json().containsKey("model"));
        assertEquals("vertex-2023-10-16", request.json().getString("anthropic_version"));
        assertEquals(Optional.of("Bearer " + sim.google().lastIssuedToken()), request.header("authorization"));
        assertEquals(Optional.empty(), request.header("x-api-key"));
        assertEquals(Optional.empty(), request.header("x-goog-user-project"));
    }

    @Test
    void claudeStreamsThroughStreamRawPredict() throws Exception {
        List<JsonObject> chunks = Collect.chunks(adapter().stream(target(CLAUDE, key()), body(true), TIMEOUT))
                .get(10, TimeUnit.SECONDS);

        assertTrue(chunks.size() > 2);
        assertTrue(sim.account("v").lastRequest().path().endsWith(":streamRawPredict"));
        assertTrue(sim.account("v").lastRequest().json().getBoolean("stream"));
    }

    @Test
    void geminiGoesToTheOpenAiCompatibleEndpointAsAGoogleModel() throws Exception {
        complete(adapter(), target("gemini-2.5-flash", key()));

        RecordedRequest request = sim.account("v").lastRequest();
        assertEquals("/v/v1/projects/sim-project/locations/us-east5/endpoints/openapi/chat/completions",
                request.path());
        assertEquals("google/gemini-2.5-flash", request.json().getString("model"));
    }

    @Test
    void theQuotaProjectOfTheCredentialsIsSentAsGooglesClientsSendIt() throws Exception {
        Path key = key();
        Files.writeString(key, Files.readString(key).replace("{\"type\"", "{\"quota_project_id\":\"billing-project\","
                + "\"type\""));

        complete(adapter(), target("gemini-2.5-flash", key));

        assertEquals(Optional.of("billing-project"), sim.account("v").lastRequest().header("x-goog-user-project"));
    }

    @Test
    void anAnthropicErrorPassedThroughByVertexIsReadAsAnthropics() {
        sim.account("v").enqueue(Behavior.invalidRequest("Input should be less than or equal to 1", "temperature"));

        ProviderException failure = fails(adapter(), target(CLAUDE, key()), TIMEOUT);

        assertEquals(FailureKind.INVALID_REQUEST, failure.failure().kind());
        assertEquals("invalid_request_error", failure.failure().type());
    }

    @Test
    void anExpiredTokenIsACredentialFailureNeverQuotedAndANewTokenIsFetched() throws Exception {
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key());
        complete(adapter, target);
        String expired = sim.google().lastIssuedToken();
        sim.google().expireTokens();

        ProviderException failure = fails(adapter, target, TIMEOUT);

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertEquals(401, failure.failure().httpStatus());
        assertEquals("ACCESS_TOKEN_EXPIRED", failure.failure().code());
        assertFalse(failure.getMessage().contains(expired), failure.getMessage());
        assertTrue(sim.google().awaitTokenRequests(2, TIMEOUT), "the 401 made the refresher fetch a new token");
        complete(adapter, target); // the new token, or a wait for it: never the expired one again
        assertFalse(sim.account("v").lastRequest().header("authorization").orElseThrow().contains(expired));
    }

    @Test
    void aKeyGoogleRefusesIsACredentialFailureAtOnce() {
        Path untrusted = sim.google().writeUntrustedServiceAccountKey(dir.resolve("untrusted.json"));

        ProviderException failure = fails(adapter(), target(CLAUDE, untrusted), TIMEOUT);

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertTrue(failure.getMessage().contains("Invalid JWT Signature"), failure.getMessage());
        assertEquals(0, sim.account("v").requestCount(), "no request went out without a token");
    }

    @Test
    void aKeyFileThatCannotBeReadIsACredentialFailure() throws Exception {
        Path notAKey = Files.writeString(dir.resolve("authorized-user.json"), "{\"type\":\"authorized_user\"}");

        ProviderException failure = fails(adapter(), target(CLAUDE, notAKey), TIMEOUT);

        assertEquals(FailureKind.CREDENTIAL, failure.failure().kind());
        assertTrue(failure.getMessage().contains("credentials-file"), failure.getMessage());
    }

    @Test
    void aTokenEndpointOutOfReachIsAConnectionFailureOnceGoogleGaveUp() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Path key = key();
        Files.writeString(key, Files.readString(key).replace(sim.google().tokenUri(),
                "http://127.0.0.1:" + closed + "/token"));
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key);

        // Google's library retries for a few seconds; a request meanwhile waits for the first token, boundedly.
        assertEquals(FailureKind.TIMEOUT, fails(adapter, target, Duration.ofMillis(300)).failure().kind());
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        FailureKind kind;
        do {
            Thread.sleep(200);
            kind = fails(adapter, target, Duration.ofMillis(300)).failure().kind();
        } while (kind == FailureKind.TIMEOUT && System.nanoTime() < end);
        assertEquals(FailureKind.CONNECTION, kind);
    }

    @Test
    void theCallingThreadNeverWaitsForATokenAndTheWaitIsBounded() throws Exception {
        sim.google().tokenDelay(Duration.ofMillis(1500));
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key());

        long started = System.nanoTime();
        CompletableFuture<JsonObject> slow = adapter.complete(target, body(false), TIMEOUT);
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 500, "complete() returned at once");
        assertFalse(slow.isDone());
        assertNotNull(slow.get(10, TimeUnit.SECONDS));

        VertexAdapter other = adapter();
        ProviderException failure = fails(other, target(CLAUDE, sim.google().writeServiceAccountKey(
                dir.resolve("second.json"))), Duration.ofMillis(300));
        assertEquals(FailureKind.TIMEOUT, failure.failure().kind());
    }

    @Test
    void aCallCancelledWhileItsTokenIsOnItsWaySendsNothing() throws Exception {
        sim.google().tokenDelay(Duration.ofMillis(500));
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key());

        adapter.complete(target, body(false), TIMEOUT).cancel(true);
        adapter.stream(target, body(true), TIMEOUT).subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(1);
                s.cancel();
            }

            @Override
            public void onNext(JsonObject item) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onComplete() {
            }
        });

        assertTrue(sim.google().awaitTokenRequests(1, TIMEOUT));
        Thread.sleep(1000); // the token arrived meanwhile
        assertEquals(0, sim.account("v").requestCount());
        complete(adapter, target);
        assertEquals(1, sim.account("v").requestCount());
    }

    @Test
    void tokensAreRefreshedBeforeTheyExpireWithoutAnyRequest() throws Exception {
        sim.google().tokenLifetime(Duration.ofSeconds(2));
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key());
        complete(adapter, target);
        String first = sim.google().lastIssuedToken();

        // A refresh at three quarters of each token's life, by the refresher alone.
        assertTrue(sim.google().awaitTokenRequests(3, Duration.ofSeconds(8)));
        assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(AccessTokens::isRefresherThread));
        complete(adapter, target);
        String sent = sim.account("v").lastRequest().header("authorization").orElseThrow();
        assertFalse(sent.contains(first), "a token of a later refresh was sent");
        assertEquals(2, sim.account("v").requestCount(), "no request failed or was repeated");
    }

    @Test
    void aFailedRefreshIsRetriedAndTheValidTokenKeepsServing() throws Exception {
        sim.google().tokenLifetime(Duration.ofSeconds(8)); // refreshed at 6 s, sent until 7.2 s
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key());
        complete(adapter, target);
        String first = sim.google().lastIssuedToken();
        sim.google().failTokenRequests(1, 400);

        assertTrue(sim.google().awaitTokenRequests(2, Duration.ofSeconds(10)), "the refresh was tried and failed");
        complete(adapter, target);
        assertEquals(Optional.of("Bearer " + first), sim.account("v").lastRequest().header("authorization"),
                "the token still valid served while the refresher failed");
        assertTrue(sim.google().awaitTokenRequests(3, Duration.ofSeconds(5)), "the refresh was tried again");
        // Its answer is on its way to the refresher: the requests switch to the new token once it is stored.
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        do {
            complete(adapter, target);
        } while (sim.account("v").lastRequest().header("authorization").orElseThrow().contains(first)
                && System.nanoTime() - end < 0);
        assertFalse(sim.account("v").lastRequest().header("authorization").orElseThrow().contains(first));
    }

    @Test
    void aTokenQuotedByTheProviderIsCutFromTheMessage() throws Exception {
        VertexAdapter adapter = adapter();
        ProviderTarget target = target(CLAUDE, key());
        complete(adapter, target);
        String token = sim.google().lastIssuedToken();
        sim.account("v").enqueue(Behavior.status(400, "{\"type\":\"error\",\"error\":{\"type\":"
                + "\"invalid_request_error\",\"message\":\"bad header: token " + token + "\"}}"));

        ProviderException failure = fails(adapter, target, TIMEOUT);

        assertEquals(FailureKind.INVALID_REQUEST, failure.failure().kind());
        assertFalse(failure.getMessage().contains(token), failure.getMessage());
        assertTrue(failure.getMessage().contains("bad header"), failure.getMessage());
    }

    @Test
    void noTokenInToString() throws Exception {
        VertexAdapter adapter = adapter();
        complete(adapter, target(CLAUDE, key()));
        String token = sim.google().lastIssuedToken();

        assertFalse(new AccessTokens.Token(token, 0, null).toString().contains(token));
        assertFalse(adapter.toString().contains(token));
    }

}
