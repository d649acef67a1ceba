package dev.baton.impl.servlet;

import dev.baton.impl.health.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Budgets: their syntax, fixed periods from the epoch, the refusal once spent and the reset after the period. */
class KeyBudgetsTest {

    private static final Instant NOON = Instant.parse("2026-12-01T12:00:00Z");

    private static NamedKey key(String name, String budget) {
        return new NamedKey(name, GatewayKeys.sha256(name), Set.of(), budget == null ? null : Budget.parse(budget));
    }

    @ParameterizedTest
    @CsvSource({"50/1d, 50, PT24H", "1000/30d, 1000, PT720H", "2.5 / 1h, 2.5, PT1H", "0.01/15m, 0.01, PT15M"})
    void readsAmountPerPeriod(String text, String amount, String period) {
        Budget b = Budget.parse(text);
        assertEquals(0, new BigDecimal(amount).compareTo(b.amount()));
        assertEquals(Duration.parse(period), b.period());
    }

    @ParameterizedTest
    @CsvSource({"50, must be written <amount>/<period>", "0/1d, more than 0", "-5/1d, must be written",
            "50/1w, is not a duration", "50/30s, between 1m and 366d", "50/400d, between 1m and 366d"})
    void refusesBadBudgets(String text, String message) {
        String problem = assertThrows(IllegalArgumentException.class, () -> Budget.parse(text)).getMessage();
        assertTrue(problem.contains(message), problem);
    }

    @Test
    void periodsAreFixedWindowsFromTheEpochInUtc() {
        Budget daily = Budget.parse("50/1d");
        assertEquals(Instant.parse("2026-12-01T00:00:00Z"), daily.periodStart(NOON));
        assertEquals(Instant.parse("2026-12-02T00:00:00Z"), daily.resetAfter(NOON));
        assertEquals("1d", daily.periodText());
        Budget monthly = Budget.parse("1000/30d");
        Instant start = monthly.periodStart(NOON);
        assertEquals(0, Duration.between(Instant.EPOCH, start).toDays() % 30);
        assertTrue(!start.isAfter(NOON) && monthly.resetAfter(NOON).isAfter(NOON));
    }

    @Test
    void aKeyIsRefusedOnceItHasSpentItsBudgetAndAllowedAgainWhenThePeriodEnds() {
        MutableClock clock = new MutableClock(NOON);
        NamedKey team = key("team-a", "1/1d");
        NamedKey unlimited = key("batch", null);
        KeyBudgets budgets = new KeyBudgets(List.of(team, unlimited), clock);

        assertNull(budgets.check(team));
        budgets.charge(team, new BigDecimal("0.6"), clock.instant());
        assertNull(budgets.check(team), "0.6 of 1 spent");
        budgets.charge(team, new BigDecimal("0.6"), clock.instant()); // a request that was already running
        KeyBudgets.Exhausted refused = budgets.check(team);
        assertNotNull(refused);
        assertEquals(0, new BigDecimal("1.2").compareTo(refused.spent()));
        assertEquals(Instant.parse("2026-12-02T00:00:00Z"), refused.resetAt());
        assertTrue(Rejections.budgetExceeded(refused).getMessage().contains("team-a"));
        assertTrue(Rejections.budgetExceeded(refused).getMessage().contains("2026-12-02T00:00:00Z"));
        assertEquals(402, Rejections.budgetExceeded(refused).httpStatus());
        assertEquals("budget_exceeded", Rejections.budgetExceeded(refused).code());

        budgets.charge(unlimited, new BigDecimal("1000"), clock.instant());
        assertNull(budgets.check(unlimited), "no budget, no limit");
        assertNull(budgets.check(null), "an unnamed key has no budget");

        clock.advance(Duration.ofHours(11).plusMinutes(59));
        assertNotNull(budgets.check(team), "still the same day");
        clock.advance(Duration.ofMinutes(1));
        assertNull(budgets.check(team), "reset at midnight UTC");
        assertEquals(0, BigDecimal.ZERO.compareTo(budgets.spent(team)));
    }

    @Test
    void aRequestAdmittedInAnEndedPeriodIsChargedToNothing() {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-01T23:59:59Z"));
        NamedKey team = key("team-a", "1/1d");
        KeyBudgets budgets = new KeyBudgets(List.of(team), clock);
        Instant admitted = budgets.now();
        clock.advance(Duration.ofSeconds(2));
        budgets.charge(team, new BigDecimal("0.5"), clock.instant());
        budgets.charge(team, new BigDecimal("5"), admitted);
        assertEquals(0, new BigDecimal("0.5").compareTo(budgets.spent(team)));
    }

    @Test
    void aRestoredSpendCountsAgainstTheCurrentPeriod() {
        MutableClock clock = new MutableClock(NOON);
        NamedKey team = key("team-a", "10/1d");
        KeyBudgets budgets = new KeyBudgets(List.of(team), clock);
        budgets.restore(team, new BigDecimal("10"));
        assertNotNull(budgets.check(team));
    }
}
