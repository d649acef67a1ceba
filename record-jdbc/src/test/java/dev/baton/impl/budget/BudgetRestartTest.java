package dev.baton.impl.budget;

import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Budget;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.health.MutableClock;
import dev.baton.impl.record.jdbc.JdbcRecordSettings;
import dev.baton.impl.record.jdbc.JdbcRecordStore;
import dev.baton.record.RequestRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * With the JDBC record store, what each key, route and connection spent in its current period survives a restart:
 * it is summed from the records, and the next hold meets it.
 */
class BudgetRestartTest {

    private static final Instant NOON = Instant.parse("2026-12-01T12:00:00Z");

    private static RequestRecord served(String id, Instant at, String amount, String caller) {
        return new RequestRecord(id, at, true, 200, null, "demo", "demo", new ServedBy("m", "openai", "primary",
                "primary", "demo"), List.of(), List.of(), false, false, 10L, 20, null, false,
                new Cost(new BigDecimal(amount), "USD", "custom"), caller, RequestRecord.REQUEST);
    }

    @Test
    void aRestartedNodeFindsWhatEachBudgetSpentThisPeriod() throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:budget_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        MutableClock clock = new MutableClock(NOON);
        JdbcRecordSettings settings = JdbcRecordSettings.defaults().withTablePrefix("budget_");
        BatonConfig config = EngineFixture.config(Map.of(
                "baton.connections.primary.provider", "openai",
                "baton.connections.primary.base-url", "http://127.0.0.1:9/v1",
                "baton.connections.primary.models", "m",
                "baton.connections.primary.budget", "10/30d",
                "baton.routes.demo.targets", "primary/m",
                "baton.routes.demo.budget", "2/1d"));
        Budget daily = Budget.parse("1/1d");

        // Before the restart: yesterday's spend, and today's, which reaches team-a's budget.
        try (JdbcRecordStore before = new JdbcRecordStore(ds, settings, clock)) {
            before.save(served("req_yesterday", NOON.minus(Duration.ofDays(1)), "5", "team-a"));
            before.save(served("req_1", NOON.minus(Duration.ofHours(3)), "0.75", "team-a"));
            before.save(served("req_2", NOON.minus(Duration.ofHours(1)), "0.25", "team-a"));
            before.save(served("req_3", NOON.minus(Duration.ofHours(1)), "0.5", "team-b"));
            assertTrue(before.flush(Duration.ofSeconds(10)));
        }

        LocalLedger ledger = new LocalLedger();
        try (JdbcRecordStore after = new JdbcRecordStore(ds, settings, clock)) {
            Spending.of(config, Map.of("team-a", daily, "team-b", daily), ledger, clock).restore(after);
        }

        assertEquals(0, BigDecimal.ONE.compareTo(ledger.spent(new Account(Account.Scope.KEY, "team-a", daily), NOON)),
                "today's records only");
        assertEquals(0, new BigDecimal("0.5").compareTo(
                ledger.spent(new Account(Account.Scope.KEY, "team-b", daily), NOON)));
        assertEquals(0, new BigDecimal("1.5").compareTo(
                ledger.spent(new Account(Account.Scope.ROUTE, "demo", Budget.parse("2/1d")), NOON)));
        // 30-day periods count from the epoch: yesterday's 5 falls in the same one as today
        assertEquals(0, new BigDecimal("6.5").compareTo(
                ledger.spent(new Account(Account.Scope.CONNECTION, "primary", Budget.parse("10/30d")), NOON)));
        Hold refused = ledger.hold(List.of(new Account(Account.Scope.KEY, "team-a", daily)), new BigDecimal("0.01"),
                NOON).join();
        assertInstanceOf(Hold.Refused.class, refused, "team-a's budget is spent, restart or not");
    }

    private static void assertTrue(boolean condition) {
        org.junit.jupiter.api.Assertions.assertTrue(condition);
    }
}
