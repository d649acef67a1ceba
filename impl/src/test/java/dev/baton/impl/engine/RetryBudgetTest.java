package dev.baton.impl.engine;

import dev.baton.impl.config.BatonConfig.RetryBudgetConfig;
import dev.baton.impl.health.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryBudgetTest {

    private final MutableClock clock = new MutableClock();
    /** 10% of requests plus 5 per second over a 10 s window: a floor of 50 retries. */
    private final RetryBudget budget = new RetryBudget(new RetryBudgetConfig(10, 5, Duration.ofSeconds(10)), clock);

    @Test
    void floorAllowsMinPerSecondTimesWindowRetriesWithNoTraffic() {
        assertEquals(50, withdrawAll());
    }

    @Test
    void tenPercentOfRequestsComeOnTopOfTheFloor() {
        for (int i = 0; i < 200; i++) {
            budget.deposit();
        }
        assertEquals(50 + 20, withdrawAll());
    }

    @Test
    void refusesOnceTheBudgetIsSpent() {
        RetryBudget small = new RetryBudget(new RetryBudgetConfig(10, 1, Duration.ofSeconds(2)), clock);
        assertTrue(small.tryWithdraw());
        assertTrue(small.tryWithdraw());
        assertFalse(small.tryWithdraw());
        assertFalse(small.tryWithdraw());
        for (int i = 0; i < 10; i++) {
            small.deposit();
        }
        assertTrue(small.tryWithdraw(), "ten requests earn one retry");
        assertFalse(small.tryWithdraw());
    }

    @Test
    void withZeroFloorAndZeroPercentNothingIsAllowed() {
        RetryBudget none = new RetryBudget(new RetryBudgetConfig(0, 0, Duration.ofSeconds(10)), clock);
        none.deposit();
        assertFalse(none.tryWithdraw());
    }

    @Test
    void theWindowSlidesAsOldBucketsExpire() {
        assertEquals(25, withdraw(25));
        clock.advanceSeconds(5);
        assertEquals(25, withdrawAll());

        clock.advanceSeconds(4); // t = 9 s: both buckets still inside the 10 s window
        assertFalse(budget.tryWithdraw());

        clock.advanceSeconds(1); // t = 10 s: the retries taken at t = 0 expire
        assertEquals(25, withdrawAll());

        clock.advanceSeconds(10); // t = 20 s: everything expired
        assertEquals(50, withdrawAll());
    }

    @Test
    void requestsEarnRetriesOnlyWhileInsideTheWindow() {
        for (int i = 0; i < 100; i++) {
            budget.deposit();
        }
        clock.advanceSeconds(10);
        assertEquals(50, withdrawAll());
    }

    private int withdraw(int n) {
        int taken = 0;
        for (int i = 0; i < n && budget.tryWithdraw(); i++) {
            taken++;
        }
        return taken;
    }

    private int withdrawAll() {
        int taken = 0;
        while (budget.tryWithdraw()) {
            taken++;
            if (taken > 10_000) {
                throw new AssertionError("the budget never ran out");
            }
        }
        return taken;
    }
}
