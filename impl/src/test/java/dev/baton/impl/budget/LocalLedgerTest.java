package dev.baton.impl.budget;

import dev.baton.impl.config.Budget;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tallies in one node's memory: atomic across accounts, never past a budget under many threads, per period. */
class LocalLedgerTest {

    private static final BigDecimal CENT = new BigDecimal("0.01");
    /** Noon on a day, so that an hour either side stays in it. */
    private static final Instant NOON = Instant.parse("2026-12-03T12:00:00Z");

    private final LocalLedger ledger = new LocalLedger();

    private static Account account(Account.Scope scope, String name, String budget) {
        return new Account(scope, name, Budget.parse(budget));
    }

    private Hold hold(BigDecimal amount, Instant at, Account... accounts) {
        return ledger.hold(List.of(accounts), amount, at).join();
    }

    /** spent + held, as a refusal reports it: what one more hold of 0 would be compared with. */
    private BigDecimal committed(Account account, Instant at) {
        Hold.Refused r = (Hold.Refused) hold(account.budget().amount().add(BigDecimal.ONE), at, account);
        return r.committed();
    }

    @Test
    void aHoldIsAllOrNothingAcrossAccounts() {
        Account key = account(Account.Scope.KEY, "alice", "1.00/1d");
        Account route = account(Account.Scope.ROUTE, "chat", "0.05/1d");
        for (int i = 0; i < 5; i++) {
            assertInstanceOf(Hold.Granted.class, hold(CENT, NOON, key, route));
        }
        Hold.Refused refused = (Hold.Refused) hold(CENT, NOON, key, route);
        assertEquals(route, refused.account(), "the route is what is full");
        assertEquals(0, refused.committed().compareTo(new BigDecimal("0.05")));
        assertEquals(CENT, refused.asked());
        assertEquals(Instant.parse("2026-12-04T00:00:00Z"), refused.resetAt());
        assertEquals(0, committed(key, NOON).compareTo(new BigDecimal("0.05")), "the key took nothing of the refusal");

        // The key full, listed after a route with room: the route takes nothing either.
        Account roomy = account(Account.Scope.ROUTE, "roomy", "10/1d");
        assertInstanceOf(Hold.Granted.class, hold(new BigDecimal("0.95"), NOON, key));
        assertEquals(key, ((Hold.Refused) hold(CENT, NOON, roomy, key)).account());
        assertEquals(0, committed(roomy, NOON).signum(), "nothing held on the route");
    }

    @Test
    void concurrentHoldsFromManyThreadsNeverPassTheBudget() throws Exception {
        Account key = account(Account.Scope.KEY, "burst", "1.00/1d");
        Account route = account(Account.Scope.ROUTE, "burst", "0.70/1d");
        ExecutorService threads = Executors.newFixedThreadPool(32);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Hold>> asked = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                // Half against the key alone, half against the key and the tighter route.
                Account[] accounts = i % 2 == 0 ? new Account[] {key} : new Account[] {key, route};
                asked.add(threads.submit(() -> {
                    go.await();
                    return hold(CENT, NOON, accounts);
                }));
            }
            go.countDown();
            int granted = 0;
            int throughRoute = 0;
            List<Hold.Granted> holds = new ArrayList<>();
            for (int i = 0; i < asked.size(); i++) {
                if (asked.get(i).get(10, TimeUnit.SECONDS) instanceof Hold.Granted g) {
                    granted++;
                    throughRoute += i % 2;
                    holds.add(g);
                }
            }
            assertEquals(100, granted, "1.00 takes exactly 100 holds of 0.01");
            assertTrue(throughRoute <= 70, "the route took " + throughRoute + " of its 70");
            assertEquals(0, committed(key, NOON).compareTo(BigDecimal.ONE));

            // Settled concurrently at half their amount: half the budget is spent, the other half free.
            List<Future<?>> settled = new ArrayList<>();
            holds.forEach(g -> settled.add(threads.submit(() -> ledger.settle(g, new BigDecimal("0.005")))));
            for (Future<?> f : settled) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertEquals(0, ledger.spent(key, NOON).compareTo(new BigDecimal("0.5")));
            assertEquals(0, committed(key, NOON).compareTo(new BigDecimal("0.5")), "nothing is held any more");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aNewPeriodStartsFromNothing() {
        Account key = account(Account.Scope.KEY, "hourly", "1.00/1h");
        Instant late = Instant.parse("2026-12-03T12:59:59.999Z");
        Hold.Granted g = (Hold.Granted) hold(BigDecimal.ONE, late, key);
        ledger.settle(g, BigDecimal.ONE);
        assertInstanceOf(Hold.Refused.class, hold(CENT, late, key));

        Instant next = Instant.parse("2026-12-03T13:00:00Z");
        assertEquals(0, ledger.spent(key, next).signum());
        assertInstanceOf(Hold.Granted.class, hold(BigDecimal.ONE, next, key), "the whole budget, again");
        assertEquals(Instant.parse("2026-12-03T14:00:00Z"), ((Hold.Refused) hold(CENT, next, key)).resetAt());
    }

    @Test
    void aHoldSettledAfterItsPeriodEndedChangesNothing() {
        Account key = account(Account.Scope.KEY, "rollover", "1.00/1h");
        Instant late = Instant.parse("2026-12-03T12:59:00Z");
        Instant next = Instant.parse("2026-12-03T13:01:00Z");
        Hold.Granted old = (Hold.Granted) hold(new BigDecimal("0.80"), late, key);
        Hold.Granted current = (Hold.Granted) hold(new BigDecimal("0.80"), next, key);

        ledger.settle(old, new BigDecimal("0.80"));
        assertEquals(0, ledger.spent(key, next).signum(), "the old hold's cost is not spent in the new period");
        assertEquals(0, committed(key, next).compareTo(new BigDecimal("0.80")), "and its amount was never held there");

        ledger.settle(current, new BigDecimal("0.30"));
        assertEquals(0, ledger.spent(key, next).compareTo(new BigDecimal("0.30")));
        assertEquals(0, committed(key, next).compareTo(new BigDecimal("0.30")));
    }

    @Test
    void aHoldDatedInAPeriodThatAlreadyEndedIsNotLeftInTheNewOne() {
        // Two calls straddling midnight: the later one reaches the ledger first and starts the new period.
        Account key = account(Account.Scope.KEY, "straddle", "1.00/1d");
        Instant before = Instant.parse("2026-12-03T23:59:59.999Z");
        Instant after = Instant.parse("2026-12-04T00:00:00Z");
        assertInstanceOf(Hold.Granted.class, hold(new BigDecimal("0.10"), after, key));
        Hold.Granted late = (Hold.Granted) hold(new BigDecimal("0.50"), before, key);

        ledger.settle(late, new BigDecimal("0.50"));
        assertEquals(0, ledger.spent(key, after).signum(), "the old period's cost is not spent in the new one");
        assertEquals(0, committed(key, after).compareTo(new BigDecimal("0.10")),
                "only the new period's own hold is held in it");
    }

    @Test
    void restoreSetsWhatWasSpentBeforeTheRestartKeepingWhatIsHeld() {
        Account key = account(Account.Scope.KEY, "restored", "1.00/1d");
        Hold.Granted g = (Hold.Granted) hold(new BigDecimal("0.20"), NOON, key);
        ledger.restore(key, new BigDecimal("0.70"), NOON);
        assertEquals(0, ledger.spent(key, NOON).compareTo(new BigDecimal("0.70")));
        assertEquals(0, committed(key, NOON).compareTo(new BigDecimal("0.90")), "0.70 spent and 0.20 held");
        assertInstanceOf(Hold.Granted.class, hold(new BigDecimal("0.10"), NOON, key));
        assertInstanceOf(Hold.Refused.class, hold(CENT, NOON, key));

        ledger.settle(g, new BigDecimal("0.05"));
        assertEquals(0, ledger.spent(key, NOON).compareTo(new BigDecimal("0.75")));
        assertEquals(0, ledger.spent(key, NOON.plus(Duration.ofDays(1))).signum(), "the next day starts from nothing");
    }
}
