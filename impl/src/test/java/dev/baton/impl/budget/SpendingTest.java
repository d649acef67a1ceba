package dev.baton.impl.budget;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.exception.FailoverException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.impl.concurrent.Futures;
import dev.baton.impl.config.Budget;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Budgets in the engine, over HTTP on loopback against the simulator: bursts of concurrent calls and streams at a
 * limit, route and connection budgets, failover chains and broken streams, each charged what it cost.
 */
class SpendingTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    /** Per million tokens, input and output alike: a request of ~80 input and 20 output tokens may cost ~0.1. */
    private static final String PRICE = "1000";
    private static final Duration LATENCY = Duration.ofMillis(300);

    private final Clock clock = Clock.systemUTC();
    private final LocalLedger ledger = new LocalLedger();

    /** Connections {@code a} and {@code b} serving model {@code m}, route {@code chat} over both, and {@code budgets}. */
    private FailoverEngine engine(Map<String, Budget> keyBudgets, Map<String, String> extra) {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m, b/m");
        props.put("baton.models.m.price.input", PRICE);
        props.put("baton.models.m.price.output", PRICE);
        props.putAll(extra);
        FailoverEngine.Parts parts = EngineFixture.parts(props, clock);
        return new FailoverEngine(parts.withSpending(Spending.of(parts.config(), keyBudgets, ledger, clock)));
    }

    private static ChatRequest small(boolean stream) {
        return ChatRequest.builder().model("chat").message("user", "Hi.").param("max_tokens", 20).stream(stream)
                .build();
    }

    private static Call byKey(ChatRequest request) {
        return Call.of(request).withCaller("team");
    }

    private BigDecimal spent(Account.Scope scope, String name, Budget budget) {
        return ledger.spent(new Account(scope, name, budget), clock.instant());
    }

    /** The cost a served answer reports, or 0. */
    private static BigDecimal cost(ChatResponse response) {
        return response.cost() == null ? BigDecimal.ZERO : response.cost().amount();
    }

    @Test
    void aBurstOfConcurrentCallsNeverSpendsMoreThanTheKeysBudget() throws Exception {
        Budget budget = Budget.parse("1/1d");
        FailoverEngine engine = engine(Map.of("team", budget), Map.of());
        sim.account("a").setDefault(Behavior.ok().afterDelay(LATENCY));

        List<CompletableFuture<ChatResponse>> calls = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            calls.add(engine.complete(byKey(small(false))));
        }
        BigDecimal served = BigDecimal.ZERO;
        int ok = 0;
        int refused = 0;
        for (CompletableFuture<ChatResponse> call : calls) {
            try {
                served = served.add(cost(call.get(10, TimeUnit.SECONDS)));
                ok++;
            } catch (java.util.concurrent.ExecutionException e) {
                RequestRejectedException rejected = assertInstanceOf(RequestRejectedException.class,
                        Futures.unwrap(e));
                assertEquals(402, rejected.httpStatus());
                assertEquals("budget_exceeded", rejected.code());
                refused++;
            }
        }

        assertEquals(100, ok + refused);
        assertTrue(ok >= 1 && refused >= 1, ok + " served, " + refused + " refused");
        assertTrue(served.compareTo(budget.amount()) <= 0, "100 concurrent calls spent " + served + " of 1");
        assertEquals(0, served.compareTo(spent(Account.Scope.KEY, "team", budget)), "the tally is what was served");
        assertEquals(ok, sim.account("a").requestCount(), "a refused call reached no provider");
    }

    @Test
    void aBurstOfConcurrentStreamsNeverSpendsMoreThanTheRoutesBudget() throws Exception {
        Budget budget = Budget.parse("1/1d");
        FailoverEngine engine = engine(Map.of(), Map.of("baton.routes.chat.budget", "1/1d"));
        sim.account("a").setDefault(Behavior.reply("one two three four").eventInterval(Duration.ofMillis(50)));

        List<EngineFixture.Collector> streams = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            EngineFixture.Collector collector = new EngineFixture.Collector();
            engine.stream(Call.of(small(true))).subscribe(collector);
            streams.add(collector);
        }
        int ok = 0;
        int refused = 0;
        for (EngineFixture.Collector stream : streams) {
            try {
                stream.done.get(10, TimeUnit.SECONDS);
                ok++;
                assertTrue(stream.chunks.stream().noneMatch(c -> c.body().containsKey("usage")
                        && c.body().getJsonArray("choices").isEmpty()), "the usage chunk the budget asked for is hidden");
            } catch (java.util.concurrent.ExecutionException e) {
                assertEquals(402, ((FailoverException) Futures.unwrap(e)).httpStatus());
                refused++;
            }
        }

        BigDecimal spent = spent(Account.Scope.ROUTE, "chat", budget);
        assertTrue(ok >= 1 && refused >= 1, ok + " served, " + refused + " refused");
        assertTrue(spent.signum() > 0 && spent.compareTo(budget.amount()) <= 0, "100 concurrent streams spent " + spent);
        assertEquals(ok, sim.account("a").requestCount());
        assertTrue(sim.account("a").lastRequest().body().contains("include_usage"), "Baton asked for the usage chunk");
    }

    @Test
    void aRouteBudgetRefusesACdiCallerWith402BeforeAnyProviderIsAsked() throws Exception {
        FailoverEngine engine = engine(Map.of(), Map.of("baton.routes.chat.budget", "0.000001/1h"));

        var e = Futures.unwrap(assertThrowsExecution(engine.complete(Call.of(small(false)))));

        RequestRejectedException refused = assertInstanceOf(RequestRejectedException.class, e);
        assertEquals(402, refused.httpStatus());
        assertTrue(refused.getMessage().startsWith("The route `chat` has a budget of 0.000001 per 1h"),
                refused.getMessage());
        assertTrue(refused.retryAfter().isEmpty(), "the request alone costs more than the budget: waiting won't help");
        RequestRecord record = refused.record().orElseThrow();
        assertEquals(402, record.httpStatus());
        assertEquals("budget_exceeded", record.errorCode());
        assertEquals(0, sim.account("a").requestCount() + sim.account("b").requestCount());
    }

    @Test
    void aConnectionWhoseBudgetCannotTakeTheAttemptIsSkippedForTheNextUntilItResets() throws Exception {
        Budget tiny = Budget.parse("0.000001/30d");
        FailoverEngine engine = engine(Map.of(), Map.of("baton.connections.a.budget", "0.000001/30d",
                "baton.connections.b.budget", "100/30d"));

        ChatResponse response = engine.complete(Call.of(small(false))).get(10, TimeUnit.SECONDS);

        assertEquals("b", response.servedBy().connection());
        assertEquals(0, sim.account("a").requestCount());
        RequestRecord record = engine.findRecord(response.requestId()).orElseThrow();
        assertEquals(1, record.skipped().size());
        assertTrue(record.skipped().get(0).reason().startsWith("its budget of 0.000001 per 30d"),
                record.skipped().get(0).reason());
        assertEquals(0, spent(Account.Scope.CONNECTION, "a", tiny).signum());
        assertEquals(0, cost(response).compareTo(spent(Account.Scope.CONNECTION, "b", Budget.parse("100/30d"))));
    }

    @Test
    void aFailedAttemptBeforeOutputIsChargedNothingAndTheOneThatServedItsCost() throws Exception {
        Budget budget = Budget.parse("10/1d");
        FailoverEngine engine = engine(Map.of("team", budget), Map.of("baton.connections.a.budget", "10/1d"));
        sim.account("a").setDefault(Behavior.serverError());

        ChatResponse response = engine.complete(byKey(small(false))).get(10, TimeUnit.SECONDS);

        assertEquals("b", response.servedBy().connection());
        assertTrue(cost(response).signum() > 0);
        assertEquals(0, cost(response).compareTo(spent(Account.Scope.KEY, "team", budget)));
        assertEquals(0, spent(Account.Scope.CONNECTION, "a", budget).signum(), "a's 500 billed nothing");
    }

    @Test
    void aStreamThatBrokeAfterOutputIsChargedItsWorstCase() throws Exception {
        Budget budget = Budget.parse("10/1d");
        FailoverEngine engine = engine(Map.of("team", budget), Map.of());
        sim.account("a").setDefault(Behavior.reply("one two three four five").cutAfter(2));

        EngineFixture.Collector stream = new EngineFixture.Collector();
        engine.stream(byKey(small(true))).subscribe(stream);
        var e = Futures.unwrap(assertThrowsExecution(stream.done));

        assertInstanceOf(StreamInterruptedException.class, e);
        BigDecimal charged = spent(Account.Scope.KEY, "team", budget);
        // ~80 input and 20 output tokens at 1000 per million: the worst case, since the provider billed what it sent
        assertTrue(charged.compareTo(new BigDecimal("0.05")) > 0 && charged.compareTo(new BigDecimal("0.2")) < 0,
                "charged " + charged);
    }

    @Test
    void withoutAnyBudgetACallOpensNoTab() {
        FailoverEngine.Parts parts = EngineFixture.parts(EngineFixture.connections(sim.simulator(), "m", "a"), clock);
        Spending none = Spending.of(parts.config(), Map.of(), ledger, clock);

        assertTrue(none == Spending.NONE);
        assertNull(none.open("team", null, small(false), true), "nothing configured, nothing done on the request path");
    }

    private static Throwable assertThrowsExecution(CompletableFuture<?> future) throws Exception {
        try {
            future.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e;
        }
        throw new AssertionError("expected the call to fail");
    }

}
