package dev.baton.impl.balance;

import dev.baton.FailureKind;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.Balance;
import dev.baton.impl.config.BatonConfig.BalanceSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The strategies' arithmetic, on virtual time with a seeded generator. */
class BalancerTest {

    private final VirtualTime time = new VirtualTime();
    private final Balancer balancer = new Balancer(BalanceSettings.DEFAULT, time, new Random(7));
    private static final Pool POOL = Pool.tier("chat", 1);

    private List<String> order(Balance balance, List<String> targets, String key) {
        return balancer.order(balance, POOL, targets, t -> t, t -> 1, key);
    }

    @Test
    void theMinimumShareIsTakenFromTheOthersInProportion() {
        assertArrayEquals(new double[] {0.05, 0.76, 0.19}, Balancer.withMinimum(new double[] {0, 0.8, 0.2}, 0.05), 1e-9);
        assertArrayEquals(new double[] {0.5, 0.5}, Balancer.withMinimum(new double[] {0.5, 0.5}, 0.05), 1e-9);
        double[] many = Balancer.withMinimum(new double[] {0.01, 0.01, 0.98}, 0.05);
        assertArrayEquals(new double[] {0.05, 0.05, 0.9}, many, 1e-9);
        assertArrayEquals(new double[] {0.25, 0.25, 0.25, 0.25}, Balancer.withMinimum(new double[] {1, 0, 0, 0}, 0.3), 1e-9,
                "equal shares when the minimums alone fill the whole");
        assertEquals(1.0, Arrays.stream(Balancer.withMinimum(new double[] {0.001, 0.002, 0.3, 0.697}, 0.05)).sum(), 1e-9);
    }

    @Test
    void aRendezvousKeyMovesOnlyWhenItsTargetLeaves() {
        List<String> four = List.of("a/m", "b/m", "c/m", "d/m");
        List<String> three = List.of("a/m", "b/m", "c/m");
        int moved = 0;
        Map<String, Integer> spread = new HashMap<>();
        for (int k = 0; k < 4000; k++) {
            String key = "session-" + k;
            String withD = order(Balance.STICKY, four, key).get(0);
            String withoutD = order(Balance.STICKY, three, key).get(0);
            spread.merge(withD, 1, Integer::sum);
            if (!withD.equals(withoutD)) {
                moved++;
                assertEquals("d/m", withD, "only the keys of the target that left move");
            }
            assertEquals(withD, order(Balance.STICKY, four, key).get(0), "the same key, the same target");
        }
        assertEquals(moved, spread.get("d/m"));
        spread.values().forEach(n -> assertTrue(Math.abs(n - 1000) < 120, "keys spread evenly: " + spread));
    }

    @Test
    void weightedPicksFollowTheWeightsAndTheRestFollowDrawnTheSameWay() {
        List<String> targets = List.of("a/m", "b/m", "c/m");
        Map<String, Integer> first = new HashMap<>();
        Map<String, Integer> secondAfterA = new HashMap<>();
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            List<String> order = balancer.order(Balance.WEIGHTED, POOL, targets, t -> t, t -> t.startsWith("a") ? 2 : 1, null);
            assertEquals(3, order.stream().distinct().count(), "every target once");
            first.merge(order.get(0), 1, Integer::sum);
            if (order.get(0).equals("a/m")) {
                secondAfterA.merge(order.get(1), 1, Integer::sum);
            }
        }
        assertEquals(0.5, first.get("a/m") / (double) n, 0.01, first::toString);
        assertEquals(0.25, first.get("b/m") / (double) n, 0.01, first::toString);
        assertEquals(0.5, secondAfterA.get("b/m") / (double) first.get("a/m"), 0.015, secondAfterA::toString);
    }

    @Test
    void aStickyKeyFollowsTheWeights() {
        List<String> targets = List.of("a/m", "b/m");
        int a = 0;
        for (int k = 0; k < 4000; k++) {
            if (balancer.order(Balance.STICKY, POOL, targets, t -> t, t -> t.startsWith("a") ? 3 : 1, "k" + k).get(0)
                    .equals("a/m")) {
                a++;
            }
        }
        assertEquals(0.75, a / 4000.0, 0.03);
    }

    @Test
    void leastBusyPicksTheTargetWithFewestInFlightAndSpreadsTies() {
        List<String> targets = List.of("a/m", "b/m", "c/m");
        balancer.started("a/m");
        balancer.started("a/m");
        balancer.started("b/m");
        assertEquals(List.of("c/m", "b/m", "a/m"), order(Balance.LEAST_BUSY, targets, null));
        balancer.ended("a/m", null, 1);
        balancer.abandoned("a/m");
        balancer.ended("b/m", FailureKind.SERVER_ERROR, 1);
        assertEquals(0, balancer.inFlight("a/m") + balancer.inFlight("b/m"));
        Map<String, Integer> firsts = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            firsts.merge(order(Balance.LEAST_BUSY, targets, null).get(0), 1, Integer::sum);
        }
        assertEquals(3, firsts.size(), "an idle tier is not all sent to its first target: " + firsts);
    }

    @Test
    void adaptiveSharesFollowErrorRateFirstThenLatencyAndAreRecomputedOnlyEachInterval() {
        List<String> targets = List.of("a/m", "b/m");
        // The tier's first request: outcomes count from here on (before it, a target pays for no outcome bucket).
        order(Balance.ADAPTIVE, targets, null);
        time.advance(Duration.ofSeconds(2)); // one interval: the next order recomputes
        for (int i = 0; i < 50; i++) {
            ok("a/m", 100);
            if (i % 5 == 0) {
                fail("b/m");
            } else {
                ok("b/m", 100);
            }
        }
        order(Balance.ADAPTIVE, targets, null);
        // b: 20% errors against a's 0 keeps 1 - 4 x 0.2 = 0.2 of its weight: 0.2 / 1.2 of the traffic.
        assertEquals(0.2 / 1.2, share("b/m"), 1e-9);

        for (int i = 0; i < 50; i++) {
            ok("b/m", 100);
        }
        order(Balance.ADAPTIVE, targets, null);
        assertEquals(0.2 / 1.2, share("b/m"), 1e-9, "not recomputed before the interval is over");

        time.advance(Duration.ofSeconds(11)); // past the window: nothing is known
        for (int i = 0; i < 20; i++) {
            ok("a/m", 100);
            ok("b/m", 300); // three times slower
        }
        order(Balance.ADAPTIVE, targets, null);
        double slow = 0.4 * 0.4; // (1.2 x 100 / 300)^2
        assertEquals(slow / (1 + slow), share("b/m"), 1e-9);
        Balancer.Share b = balancer.shares().stream().filter(s -> s.target().equals("b/m")).findFirst().orElseThrow();
        assertEquals(300, b.latencyMillis());
        assertEquals(0.0, b.errorRate());
        assertEquals(Balance.ADAPTIVE, b.balance());
    }

    @Test
    void outcomesCountOnlyOnceABalancedPoolHasOrderedTheTarget() {
        List<String> targets = List.of("a/m", "b/m");
        for (int i = 0; i < 50; i++) { // tried in priority order only: no outcome bucket is kept
            ok("a/m", 100);
            fail("b/m");
        }
        order(Balance.ADAPTIVE, targets, null);
        assertEquals(0.5, share("b/m"), 1e-9, "failures before the tier was balanced were counted");
        for (int i = 0; i < 50; i++) {
            ok("a/m", 100);
            fail("b/m");
        }
        time.advance(Duration.ofSeconds(2));
        order(Balance.ADAPTIVE, targets, null);
        assertEquals(0.05, share("b/m"), 1e-9, "all failing since: the minimum share");
        assertEquals(0, balancer.inFlight("a/m") + balancer.inFlight("b/m"), "in flight is counted either way");
    }

    @Test
    void aTargetWithTooFewAttemptsIsNotJudged() {
        order(Balance.ADAPTIVE, List.of("a/m", "b/m"), null);
        fail("b/m");
        fail("b/m");
        ok("a/m", 100);
        time.advance(Duration.ofSeconds(2));
        order(Balance.ADAPTIVE, List.of("a/m", "b/m"), null);
        assertEquals(0.5, share("b/m"), 1e-9);
    }

    private void ok(String target, long millis) {
        balancer.started(target);
        balancer.ended(target, null, Duration.ofMillis(millis).toNanos());
    }

    private void fail(String target) {
        balancer.started(target);
        balancer.ended(target, FailureKind.SERVER_ERROR, 5_000_000);
    }

    private double share(String target) {
        return balancer.shares().stream().filter(s -> s.target().equals(target)).mapToDouble(Balancer.Share::share)
                .findFirst().orElseThrow();
    }
}
