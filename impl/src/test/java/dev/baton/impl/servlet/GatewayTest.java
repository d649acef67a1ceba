package dev.baton.impl.servlet;

import dev.baton.impl.engine.Api;
import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.impl.budget.Account;
import dev.baton.impl.budget.LocalLedger;
import dev.baton.impl.budget.Spending;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.Budget;
import dev.baton.impl.concurrent.Futures;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's chain without a servlet: each step's refusals, what it lets through, and the order of the steps, over
 * a real engine and HTTP over loopback against the simulator. Budgets and idempotency keys run on virtual time (the
 * engine's own budget tests are in {@code dev.baton.impl.budget}).
 */
class GatewayTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    /** A price per million tokens dear enough that one answer spends a 0.000001 budget. */
    private static final String PRICE = "1000";
    private static final Instant NOON = Instant.parse("2026-12-01T12:00:00Z");

    private final VirtualTime time = new VirtualTime();
    private FailoverEngine engine;
    private final LocalLedger ledger = new LocalLedger();

    private static NamedKey key(String name, Set<String> allowed, String budget) {
        return new NamedKey(name, GatewayKeys.sha256(name), allowed, budget == null ? null : Budget.parse(budget));
    }

    /** A key whose budget is less than any request's worst case. */
    private static final NamedKey TINY = key("tiny", Set.of(), "0.000001/1d");
    /** A key whose budget takes a few requests of at most 20 tokens out (see {@link #small}). */
    private static final NamedKey SPENDER = key("spender", Set.of(), "0.3/1d");
    /** A key that may use the route {@code chat} only. */
    private static final NamedKey LIMITED = key("limited", Set.of("chat"), null);
    /** A key whose budget no test spends. */
    private static final NamedKey ROOMY = key("roomy", Set.of(), "1000/1d");

    /**
     * The chain as the endpoint builds it, over routes {@code chat} and {@code other} on two priced models, with
     * {@code keys} the only ones with budgets.
     */
    private Gateway gateway(Set<String> endpointAllows, NamedKey... keys) {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m,n", "a");
        props.put("baton.routes.chat.targets", "a/m");
        props.put("baton.routes.other.targets", "a/n");
        props.put("baton.models.m.price.input", PRICE);
        props.put("baton.models.m.price.output", PRICE);
        props.put("baton.models.n.price.input", PRICE);
        props.put("baton.models.n.price.output", PRICE);
        FailoverEngine.Parts parts = EngineFixture.parts(props, time);
        Map<String, Budget> budgets = new java.util.TreeMap<>();
        for (NamedKey key : keys) {
            if (key.budget() != null) {
                budgets.put(key.name(), key.budget());
            }
        }
        engine = new FailoverEngine(parts.withSpending(Spending.of(parts.config(), budgets, ledger, time)));
        Idempotency idempotency = new Idempotency(new IdempotencyCache(Duration.ofHours(1), 100, time), null);
        return Gateway.of(new RequestLimits(EndpointSettings.DEFAULT_MAX_N, EndpointSettings.DEFAULT_MAX_OUTPUT_TOKENS,
                engine.config()), new ModelAllowlist(endpointAllows, engine.config()), idempotency, engine);
    }

    /** What {@code key} has spent today, on virtual time. */
    private BigDecimal spent(NamedKey key) {
        return ledger.spent(new Account(Account.Scope.KEY, key.name(), key.budget()), time.instant());
    }

    /** A request whose worst case at {@link #PRICE} is about 0.1: some 80 tokens of input, at most 20 of output. */
    private static ChatRequest small() {
        return ChatRequest.builder().model("chat").message("user", "Hi.").param("max_tokens", 20).build();
    }

    private static GatewayCall call(ChatRequest request, NamedKey key, String idempotencyKey) {
        return new GatewayCall(request, Api.CHAT, false, key == null ? "anonymous" : "key:" + key.name(), key, idempotencyKey,
                request.body().toString().getBytes(StandardCharsets.UTF_8), "req_refused");
    }

    private static ChatRequest stream(String model, boolean askUsage) {
        ChatRequest.Builder b = ChatRequest.builder().model(model).message("user", "Say hello.").stream(true);
        if (askUsage) {
            b.param("stream_options", Json.createObjectBuilder().add("include_usage", true).build());
        }
        return b.build();
    }

    /** The reply as the servlet would write it. */
    private static Answer answer(Reply reply) throws Exception {
        CompletionStage<Answer> stage = reply instanceof Reply.Completed c
                ? c.response().handle((ok, e) -> e == null ? Responses.success(ok)
                        : Responses.failure(Futures.unwrap(e), "req_refused"))
                : assertInstanceOf(Reply.Answered.class, reply).answer();
        return stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static JsonObject error(Answer answer) {
        return Json.createReader(new ByteArrayInputStream(answer.body())).readObject().getJsonObject("error");
    }

    /** Every chunk of a stream, asking for one at a time as the servlet's output does. */
    private static List<ChatChunk> chunks(Reply reply) throws Exception {
        EngineFixture.Collector collector = new EngineFixture.Collector();
        assertInstanceOf(Reply.Streamed.class, reply).chunks().subscribe(collector);
        collector.done.get(5, TimeUnit.SECONDS);
        return collector.chunks;
    }

    @Test
    void aModelTheKeyMayNotUseIsRefusedWith403AndNoProviderIsCalled() throws Exception {
        Gateway gateway = gateway(Set.of(), LIMITED);
        Answer refused = answer(gateway.handle(call(ChatRequest.of("other", "Hi."), LIMITED, null)));

        assertEquals(403, refused.status());
        assertEquals("model_not_allowed", error(refused).getString("code"));
        assertEquals(0, sim.account("a").requestCount());
        Answer unknown = answer(gateway.handle(call(ChatRequest.of("nowhere", "Hi."), LIMITED, null)));
        assertEquals(404, unknown.status(), "a model nothing serves stays unknown, not forbidden");
        assertEquals("model_not_found", error(unknown).getString("code"));
        assertEquals(200, answer(gateway.handle(call(ChatRequest.of("chat", "Hi."), LIMITED, null))).status());
    }

    @Test
    void theEndpointsAllowlistDropsAFallbackItDoesNotAllowInsteadOfRoutingAroundIt() throws Exception {
        Gateway gateway = gateway(Set.of("chat"));
        sim.account("a").setDefault(Behavior.serverError());
        ChatRequest request = ChatRequest.builder().model("chat").message("user", "Hi.").fallbacks("n").build();

        Answer failed = answer(gateway.handle(call(request, null, null)));

        assertEquals(502, failed.status());
        JsonArray attempts = error(failed).getJsonArray("attempts");
        assertFalse(attempts.isEmpty());
        attempts.forEach(a -> assertEquals("m", a.asJsonObject().getString("model"), "the fallback was not tried"));
        assertEquals(403, answer(gateway.handle(call(ChatRequest.of("n", "Hi."), null, null))).status());
    }

    @Test
    void aKeyWhoseBudgetCannotTakeTheNextRequestsWorstCaseIsRefusedWith402UntilItsPeriodEnds() throws Exception {
        Gateway gateway = gateway(Set.of(), SPENDER);
        time.advance(Duration.between(VirtualTime.START, NOON));
        int served = 0;
        Answer refused = answer(gateway.handle(call(small(), SPENDER, null)));
        while (refused.status() == 200 && served < 20) {
            served++;
            assertTrue(spent(SPENDER).signum() > 0, "charged the answer's cost");
            refused = answer(gateway.handle(call(small(), SPENDER, null)));
        }
        assertTrue(served >= 1 && served < 20, "served " + served + " before the budget refused");
        assertTrue(spent(SPENDER).compareTo(SPENDER.budget().amount()) <= 0, "spent " + spent(SPENDER));
        assertEquals(402, refused.status());
        assertEquals("budget_exceeded", error(refused).getString("code"));
        assertTrue(error(refused).getString("message").contains("The budget resets at 2026-12-02T00:00:00Z."),
                error(refused).getString("message"));
        assertEquals(Long.toString(Duration.ofHours(12).toSeconds()), refused.headers().get("retry-after"));
        assertTrue(refused.headers().containsKey(Responses.BUDGET_RESET));
        assertEquals(served, sim.account("a").requestCount(), "the refusal called no provider");

        time.advance(Duration.ofHours(12));
        assertEquals(200, answer(gateway.handle(call(small(), SPENDER, null))).status(), "a new period, a whole budget");
    }

    @Test
    void aRequestThatMayCostMoreThanTheWholeBudgetIsRefusedWithoutARetryAfter() throws Exception {
        Gateway gateway = gateway(Set.of(), TINY);
        Answer refused = answer(gateway.handle(call(small(), TINY, null)));

        assertEquals(402, refused.status());
        assertTrue(error(refused).getString("message").contains("more than the whole budget"));
        assertFalse(refused.headers().containsKey("retry-after"), "waiting for the reset would not help");
        assertEquals(0, sim.account("a").requestCount());
    }

    @Test
    void theAllowlistComesBeforeTheBudget() throws Exception {
        NamedKey both = key("both", Set.of("chat"), "0.000001/1d");
        Gateway gateway = gateway(Set.of(), both);

        assertEquals(403, answer(gateway.handle(call(ChatRequest.of("other", "Hi."), both, null))).status(),
                "a model the key may not use is refused as such, whatever its budget");
        assertEquals(402, answer(gateway.handle(call(ChatRequest.of("chat", "Hi."), both, null))).status());
    }

    @Test
    void aRepeatedIdempotencyKeyGetsTheFirstAnswerWithOneUpstreamCallAndIsChargedOnce() throws Exception {
        Gateway gateway = gateway(Set.of(), ROOMY);
        ChatRequest request = ChatRequest.of("chat", "Hi.");

        Answer first = answer(gateway.handle(call(request, ROOMY, "k-1")));
        BigDecimal spent = spent(ROOMY);
        Answer repeat = answer(gateway.handle(call(request, ROOMY, "k-1")));

        assertEquals(200, first.status());
        assertTrue(spent.signum() > 0, "the first answer is charged");
        assertArrayEquals(first.body(), repeat.body(), "byte for byte");
        assertEquals("true", repeat.headers().get(Answer.REPLAY_HEADER));
        assertEquals(1, sim.account("a").requestCount());
        assertEquals(0, spent.compareTo(spent(ROOMY)), "the replay is charged nothing");
    }

    @Test
    void aRepeatWhileTheOwnerRunsAttachesToItsAnswer() throws Exception {
        gateway(Set.of()); // for its engine: the chain here is idempotency alone, before an engine call held back
        CompletableFuture<Void> held = new CompletableFuture<>();
        Gateway chain = new Gateway(List.of(new Idempotency(new IdempotencyCache(Duration.ofHours(1), 10, time), null)),
                c -> new Reply.Completed(held.thenCompose(x -> engine.complete(dev.baton.impl.engine.Call.of(
                        c.request())))));
        ChatRequest request = ChatRequest.of("chat", "Hi.");

        Reply owner = chain.handle(call(request, null, "k-2"));
        Reply repeat = chain.handle(call(request, null, "k-2"));
        assertFalse(((Reply.Answered) repeat).answer().toCompletableFuture().isDone(), "waits for the owner");
        held.complete(null);

        assertArrayEquals(answer(owner).body(), answer(repeat).body());
        assertEquals(1, sim.account("a").requestCount());
    }

    @Test
    void theSameKeyWithAnotherBodyIsRefusedWith422AndAStreamWithAKeyWith400() throws Exception {
        Gateway gateway = gateway(Set.of());
        assertEquals(200, answer(gateway.handle(call(ChatRequest.of("chat", "Hi."), null, "k-3"))).status());

        Answer reused = answer(gateway.handle(call(ChatRequest.of("chat", "Something else."), null, "k-3")));
        assertEquals(422, reused.status());
        assertEquals("idempotency_key_reused", error(reused).getString("code"));

        Answer streamed = answer(gateway.handle(call(stream("chat", false), null, "k-4")));
        assertEquals(400, streamed.status());
        assertEquals(Idempotency.HEADER, error(streamed).getString("param"));
        assertEquals(1, sim.account("a").requestCount());
    }

    @Test
    void anOwnerWhoseChainFailsStillSettlesItsKeySoARetryRunsAgain() throws Exception {
        IdempotencyCache cache = new IdempotencyCache(Duration.ofHours(1), 10, time);
        Gateway broken = new Gateway(List.of(new Idempotency(cache, null)), c -> {
            throw new IllegalStateException("a bug past the idempotency step");
        });
        ChatRequest request = ChatRequest.of("chat", "Hi.");

        assertEquals(500, answer(broken.handle(call(request, null, "k-5"))).status());
        assertEquals(0, cache.size(), "the key was released, not left running");
    }

    @Test
    void aBudgetedKeysStreamIsChargedFromAUsageChunkTheCallerDidNotAskForAndDoesNotSee() throws Exception {
        Gateway gateway = gateway(Set.of(), ROOMY);

        List<ChatChunk> hidden = chunks(gateway.handle(call(stream("chat", false), ROOMY, null)));
        BigDecimal afterHidden = spent(ROOMY);
        List<ChatChunk> asked = chunks(gateway.handle(call(stream("chat", true), ROOMY, null)));

        assertTrue(afterHidden.signum() > 0, "charged from the usage chunk Baton asked for");
        assertFalse(hidden.isEmpty());
        assertTrue(hidden.stream().noneMatch(GatewayTest::usageOnly), "and the caller does not see it");
        assertTrue(usageOnly(asked.get(asked.size() - 1)), "a caller that asked for usage gets it");
        assertEquals(0, afterHidden.multiply(BigDecimal.valueOf(2)).compareTo(spent(ROOMY)),
                "both streams charged alike");
    }

    @Test
    void aStreamOfACallerWithoutABudgetIsPassedAsItComes() throws Exception {
        Gateway gateway = gateway(Set.of());
        List<ChatChunk> chunks = chunks(gateway.handle(call(stream("chat", false), null, null)));

        assertFalse(chunks.isEmpty());
        assertTrue(chunks.stream().noneMatch(GatewayTest::usageOnly), "no usage chunk asked for on its behalf");
    }

    static Stream<Arguments> unbillable() {
        return Stream.of(
                Arguments.of("{\"n\":1000}", "n"),
                Arguments.of("{\"n\":0}", "n"),
                Arguments.of("{\"n\":2.5}", "n"),
                Arguments.of("{\"n\":\"3\"}", "n"),
                Arguments.of("{\"max_tokens\":-5}", "max_tokens"),
                Arguments.of("{\"max_tokens\":0}", "max_tokens"),
                Arguments.of("{\"max_tokens\":1e999999}", "max_tokens"),
                Arguments.of("{\"max_completion_tokens\":1000001}", "max_completion_tokens"),
                Arguments.of("{\"max_completion_tokens\":true}", "max_completion_tokens"));
    }

    @ParameterizedTest
    @MethodSource("unbillable")
    void whatNoProviderShouldBeBilledForIsRefusedWith400BeforeAnyProviderIsCalled(String members, String param)
            throws Exception {
        Gateway gateway = gateway(Set.of("chat"), LIMITED);
        JsonObject changes = Json.createReader(new StringReader(members)).readObject();
        JsonObject body = Json.createObjectBuilder(ChatRequest.of("chat", "Hi.").toJson()).addAll(
                Json.createObjectBuilder(changes)).build();

        Answer refused = answer(gateway.handle(call(ChatRequest.fromJson(body), LIMITED, null)));

        assertEquals(400, refused.status());
        assertEquals("invalid_request_error", error(refused).getString("type"));
        assertEquals(param, error(refused).getString("param"));
        assertTrue(error(refused).getString("message").length() < 300, () -> error(refused).getString("message"));
        assertEquals(0, sim.account("a").requestCount());
    }

    @Test
    void aModelNameLongerThanEveryConfiguredNameIsUnknownAndRepeatedOnlyInPart() throws Exception {
        Gateway gateway = gateway(Set.of("chat"), LIMITED);
        String longName = "m".repeat(10_000);

        Answer model = answer(gateway.handle(call(ChatRequest.of(longName, "Hi."), LIMITED, null)));
        Answer fallback = answer(gateway.handle(call(ChatRequest.builder().model("m").message("user", "Hi.")
                .fallbacks("n", "x".repeat(300)).build(), null, null)));

        assertEquals(404, model.status());
        assertEquals("model_not_found", error(model).getString("code"));
        assertEquals("The model `" + "m".repeat(64) + "…` (10000 characters) is longer than any configured model or"
                + " route name (at most 5), so it names none.", error(model).getString("message"));
        assertEquals(400, fallback.status());
        assertEquals("unknown_fallback_model", error(fallback).getString("code"));
        assertTrue(error(fallback).getString("message").startsWith("fallbacks[1]: `" + "x".repeat(64) + "…` (300"),
                () -> error(fallback).getString("message"));
        assertEquals(0, sim.account("a").requestCount());
    }

    @Test
    void limitsWithinBoundsPassThrough() throws Exception {
        Gateway gateway = gateway(Set.of());
        JsonObject body = Json.createObjectBuilder(ChatRequest.of("chat", "Hi.").toJson())
                .add("n", 1).add("max_tokens", 64).add("max_completion_tokens", 1_000_000).build();

        assertEquals(200, answer(gateway.handle(call(ChatRequest.fromJson(body), null, null))).status());
        assertEquals(1, sim.account("a").requestCount());
    }

    @Test
    void anIdempotencyKeyOfOneCallerIsNeverReplayedToAnother() throws Exception {
        Gateway gateway = gateway(Set.of(), ROOMY, SPENDER);
        ChatRequest request = small();

        Answer first = answer(gateway.handle(call(request, ROOMY, "same-key")));
        Answer other = answer(gateway.handle(call(request, SPENDER, "same-key")));
        Answer repeat = answer(gateway.handle(call(request, ROOMY, "same-key")));

        assertEquals(200, first.status());
        assertEquals(200, other.status());
        assertFalse(other.headers().containsKey("x-baton-idempotent-replay"), "another caller's key is its own");
        assertEquals(2, sim.account("a").requestCount(), "each caller's request reached the provider");
        assertEquals("true", repeat.headers().get("x-baton-idempotent-replay"));
        assertEquals(2, sim.account("a").requestCount(), "the owner's repeat was replayed");
    }

    @Test
    void aKeyReadsOnlyItsOwnRecordsAndTheAdminKeyReadsAll() throws Exception {
        Gateway gateway = gateway(Set.of(), ROOMY, SPENDER);
        Answer roomys = answer(gateway.handle(call(ChatRequest.of("chat", "Hi."), ROOMY, null)));
        Answer anonymous = answer(gateway.handle(call(ChatRequest.of("chat", "Hi."), null, null)));
        String roomyId = roomys.headers().get("x-request-id");
        String anonymousId = anonymous.headers().get("x-request-id");

        assertTrue(RecordAccess.read(engine.findRecord(roomyId), "key:roomy", ROOMY).isPresent());
        assertTrue(RecordAccess.read(engine.findRecord(roomyId), "admin", null).isPresent());
        assertTrue(RecordAccess.read(engine.findRecord(roomyId), "key:spender", SPENDER).isEmpty());
        assertTrue(RecordAccess.read(engine.findRecord(roomyId), "anonymous", null).isEmpty());
        assertTrue(RecordAccess.read(engine.findRecord(anonymousId), "anonymous", null).isPresent());
        assertTrue(RecordAccess.read(engine.findRecord(anonymousId), "key:roomy", ROOMY).isEmpty());
        assertEquals(RecordAccess.notFound(roomyId).getMessage(), RecordAccess.notFound(roomyId).getMessage());
    }

    @Test
    void aProviderMessageReachesTheCallerWithoutTheAccountsIdsButTheRecordKeepsThem() throws Exception {
        Gateway gateway = gateway(Set.of(), ROOMY);
        sim.account("a").setDefault(Behavior.openAiError(429, "tokens", "rate_limit_exceeded",
                "Rate limit reached for gpt-4o in organization org-Zx8k2LmQ4pRt7VwY1nB3cD5f on tokens per min"
                        + " (TPM): Limit 30000, Used 29876, Requested 512. Please try again in 776ms."));

        Answer failed = answer(gateway.handle(call(ChatRequest.of("chat", "Hi."), ROOMY, null)));

        String message = error(failed).getString("message");
        assertEquals(429, failed.status());
        assertFalse(message.contains("Zx8k2LmQ4pRt7VwY1nB3cD5f"), message);
        assertTrue(message.contains("in organization org-<hidden> on tokens per min (TPM): Limit 30000"), message);
        String id = failed.headers().get("x-request-id");
        String recorded = engine.findRecord(id).orElseThrow().attempts().get(0).message();
        assertTrue(recorded.contains("org-Zx8k2LmQ4pRt7VwY1nB3cD5f"), "the operator's record keeps it: " + recorded);
        JsonObject asRoomySeesIt = RecordAccess.read(engine.findRecord(id), "key:roomy", ROOMY).orElseThrow();
        String shown = asRoomySeesIt.getJsonArray("attempts").getJsonObject(0).getString("message");
        assertFalse(shown.contains("Zx8k2LmQ4pRt7VwY1nB3cD5f"), shown);
        String adminSees = RecordAccess.read(engine.findRecord(id), "admin", null).orElseThrow()
                .getJsonArray("attempts").getJsonObject(0).getString("message");
        assertTrue(adminSees.contains("org-Zx8k2LmQ4pRt7VwY1nB3cD5f"), adminSees);
    }

    @Test
    void aStreamBrokenByAProviderErrorEventEndsWithTheAccountsIdsMasked() {
        Gateway gateway = gateway(Set.of());
        sim.account("a").setDefault(Behavior.ok().streamErrorAfter(2, "server_error", null,
                "The server had an error processing your request in organization org-Zx8k2LmQ4pRt7VwY1nB3cD5f."));
        EngineFixture.Collector collector = new EngineFixture.Collector();

        assertInstanceOf(Reply.Streamed.class, gateway.handle(call(stream("chat", false), null, null))).chunks()
                .subscribe(collector);

        Throwable broke = assertThrows(ExecutionException.class,
                () -> collector.done.get(5, TimeUnit.SECONDS)).getCause();
        assertInstanceOf(StreamInterruptedException.class, broke);
        assertFalse(broke.getMessage().contains("Zx8k2LmQ4pRt7VwY1nB3cD5f"), broke.getMessage());
        assertTrue(broke.getMessage().contains("org-<hidden>"), broke.getMessage());
    }

    private static boolean usageOnly(ChatChunk chunk) {
        return chunk.body().get("usage") instanceof JsonObject
                && chunk.body().get("choices") instanceof JsonArray choices && choices.isEmpty();
    }
}
