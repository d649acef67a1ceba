package dev.baton.impl.telemetry;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.impl.budget.Account;
import dev.baton.impl.budget.LocalLedger;
import dev.baton.impl.budget.SharedLedger;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.config.Budget;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.testkit.ProviderSimulatorExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code baton.budget.used}: what each budget has spent this period, read without blocking, and nothing without budgets. */
class BudgetGaugeTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static final AttributeKey<String> SCOPE = AttributeKey.stringKey("baton.budget.scope");
    private static final AttributeKey<String> NAME = AttributeKey.stringKey("baton.budget.name");

    private final InMemoryMetricReader reader = InMemoryMetricReader.create();
    private final SdkMeterProvider meters = SdkMeterProvider.builder().registerMetricReader(reader).build();
    private final OtelObserver observer = new OtelObserver(OpenTelemetrySdk.builder().setMeterProvider(meters).build());
    private final Clock clock = Clock.systemUTC();

    @AfterEach
    void close() {
        meters.close();
    }

    /** Route {@code chat} over connections {@code a} and {@code b}, priced so that a request costs something. */
    private Map<String, String> props() {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m, b/m");
        props.put("baton.models.m.price.input", "1000");
        props.put("baton.models.m.price.output", "1000");
        return props;
    }

    @Test
    void everyBudgetReportsTheFractionSpentInItsPeriodByScopeAndName() throws Exception {
        Map<String, String> props = props();
        props.put("baton.routes.chat.budget", "10/1d");
        props.put("baton.connections.a.budget", "4/1h");
        LocalLedger ledger = new LocalLedger();
        FailoverEngine.Parts parts = EngineFixture.parts(props, clock);
        Spending spending = Spending.of(parts.config(), Map.of("team", Budget.parse("2/1d")), ledger, clock);
        FailoverEngine engine = new FailoverEngine(parts.withSpending(spending));
        observer.watchBudgets(spending);

        ledger.restore(new Account(Account.Scope.ROUTE, "chat", Budget.parse("10/1d")), new BigDecimal("2.5"),
                clock.instant());
        Collection<MetricData> before = reader.collectAllMetrics();
        assertEquals(0.25, used(before, "route", "chat"), 1e-9, "2.5 of 10");
        assertEquals(0, used(before, "key", "team"), 1e-9);
        assertEquals(0, used(before, "connection", "a"), 1e-9);
        assertEquals(3, points(before).size(), "one point per budget, none for b, which has none");
        MetricData metric = metric(before);
        assertEquals("1", metric.getUnit());

        ChatResponse answer = engine.complete(Call.of(ChatRequest.builder().model("chat").message("user", "Hi.")
                        .param("max_tokens", 20).build()).withCaller("team"))
                .get(10, TimeUnit.SECONDS);
        double cost = answer.cost().amount().doubleValue();
        assertTrue(cost > 0);
        Collection<MetricData> after = reader.collectAllMetrics();
        assertEquals((2.5 + cost) / 10, used(after, "route", "chat"), 1e-9, "what the served request cost is added");
        assertEquals(cost / 2, used(after, "key", "team"), 1e-9);
        assertEquals(cost / 4, used(after, "connection", "a"), 1e-9);
    }

    @Test
    void withNoBudgetConfiguredTheGaugeDoesNotExist() {
        FailoverEngine.Parts parts = EngineFixture.parts(props(), clock);
        Spending none = Spending.of(parts.config(), Map.of(), new LocalLedger(), clock);
        observer.watchBudgets(none);
        observer.watchBudgets(Spending.NONE);

        assertTrue(none.accounts().isEmpty());
        assertFalse(reader.collectAllMetrics().stream().anyMatch(m -> m.getName().equals("baton.budget.used")));
    }

    @Test
    void aSharedLedgerReportsWhatTheStoreSaidAtThisNodesLastHoldWithoutAskingIt() throws Exception {
        Map<String, String> props = props();
        props.put("baton.routes.chat.budget", "10/1d");
        Store store = new Store();
        SharedLedger ledger = new SharedLedger(store);
        Spending spending = Spending.of(EngineFixture.config(props), Map.of(), ledger, clock);
        observer.watchBudgets(spending);
        Account chat = spending.accounts().get(0);

        assertEquals(0, used(reader.collectAllMetrics(), "route", "chat"), 1e-9, "nothing known before a hold");
        store.committed = new BigDecimal("7"); // what other nodes have spent and hold
        ledger.hold(List.of(chat), BigDecimal.ONE, clock.instant()).get(5, TimeUnit.SECONDS);
        int asked = store.holds;
        assertEquals(0.8, used(reader.collectAllMetrics(), "route", "chat"), 1e-9, "7 committed before it, 1 held");
        assertEquals(asked, store.holds, "reading the gauge asks the store nothing");
    }

    private static double used(Collection<MetricData> metrics, String scope, String name) {
        return points(metrics).stream().filter(p -> p.getAttributes().equals(Attributes.of(SCOPE, scope, NAME, name)))
                .mapToDouble(DoublePointData::getValue).findFirst().orElseThrow();
    }

    private static MetricData metric(Collection<MetricData> metrics) {
        return metrics.stream().filter(m -> m.getName().equals("baton.budget.used")).findFirst().orElseThrow();
    }

    private static Collection<DoublePointData> points(Collection<MetricData> metrics) {
        return metric(metrics).getDoubleGaugeData().getPoints();
    }

    /** A cluster store that answers every hold with the same committed amount, as if other nodes had spent it. */
    private static final class Store implements ClusterStore {

        volatile BigDecimal committed = BigDecimal.ZERO;
        volatile int holds;

        @Override
        public CompletableFuture<Counted> hold(List<Tally> tallies, String id, BigDecimal amount, Instant now,
                                               Instant until) {
            holds++;
            return CompletableFuture.completedFuture(new Counted(-1, tallies.stream().map(t -> committed).toList()));
        }

        @Override
        public CompletableFuture<Void> settle(List<Tally> tallies, String id, BigDecimal cost) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public boolean connected() {
            return true;
        }

        @Override
        public void start(Consumer<String> messages, Consumer<Boolean> connectivity) {
        }

        @Override
        public CompletableFuture<Void> share(String connection, String message) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Map<String, String>> shared() {
            return CompletableFuture.completedFuture(Map.of());
        }

        @Override
        public CompletableFuture<String> setIfAbsent(String key, String value, Duration ttl) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<String> get(String key) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> put(String key, String value, Duration ttl) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String describe() {
            return "test store";
        }

        @Override
        public void close() {
        }
    }
}
