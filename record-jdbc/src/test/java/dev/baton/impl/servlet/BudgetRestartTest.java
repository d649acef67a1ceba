package dev.baton.impl.servlet;

import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.baton.impl.health.MutableClock;
import dev.baton.impl.record.InMemoryRecordStore;
import dev.baton.impl.record.jdbc.JdbcRecordSettings;
import dev.baton.impl.record.jdbc.JdbcRecordStore;
import dev.baton.record.RequestRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With the JDBC record store a key's spend in its current period survives a restart: it is summed from the records. */
class BudgetRestartTest {

    private static final Instant NOON = Instant.parse("2026-12-01T12:00:00Z");

    private static RequestRecord served(String id, Instant at, String amount, String caller) {
        return new RequestRecord(id, at, true, 200, null, "demo", "demo", new ServedBy("m", "openai", "primary",
                "primary", "demo"), List.of(), List.of(), false, false, 10L, 20, null, false,
                new Cost(new BigDecimal(amount), "USD", "custom"), caller, RequestRecord.REQUEST);
    }

    @Test
    void aRestartedEndpointFindsWhatEachKeySpentThisPeriod() throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:budget_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        MutableClock clock = new MutableClock(NOON);
        NamedKey team = new NamedKey("team-a", GatewayKeys.sha256("a"), Set.of(), Budget.parse("1/1d"));
        NamedKey other = new NamedKey("team-b", GatewayKeys.sha256("b"), Set.of(), Budget.parse("1/1d"));
        JdbcRecordSettings settings = JdbcRecordSettings.defaults().withTablePrefix("budget_");

        // Before the restart: yesterday's spend, and today's, which reaches the budget.
        try (JdbcRecordStore before = new JdbcRecordStore(ds, settings, clock)) {
            before.save(served("req_yesterday", NOON.minus(Duration.ofDays(1)), "5", "team-a"));
            before.save(served("req_1", NOON.minus(Duration.ofHours(3)), "0.75", "team-a"));
            before.save(served("req_2", NOON.minus(Duration.ofHours(1)), "0.25", "team-a"));
            before.save(served("req_3", NOON.minus(Duration.ofHours(1)), "0.5", "team-b"));
            assertTrue(before.flush(Duration.ofSeconds(10)));
        }

        try (JdbcRecordStore after = new JdbcRecordStore(ds, settings, clock)) {
            KeyBudgets budgets = new KeyBudgets(List.of(team, other), clock);
            BudgetSetup.restore(budgets, List.of(team, other), after);

            assertEquals(0, BigDecimal.ONE.compareTo(budgets.spent(team)), "today's records only");
            assertNotNull(budgets.check(team));
            assertEquals(0, new BigDecimal("0.5").compareTo(budgets.spent(other)));
            assertNull(budgets.check(other));
        }

        KeyBudgets inMemory = new KeyBudgets(List.of(team), clock);
        BudgetSetup.restore(inMemory, List.of(team), new InMemoryRecordStore(10));
        assertNull(inMemory.check(team), "the memory store starts empty: nothing to restore");
    }
}
