package dev.baton.impl.budget;

import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.cluster.redis.RedisClusterStore;
import dev.baton.impl.cluster.redis.RedisProcess;
import dev.baton.impl.config.Budget;
import dev.baton.impl.engine.EngineFixture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.baton.impl.concurrent.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared ledger on a redis-server of the test's own: two {@link SharedLedger}s, each on its own
 * {@link RedisClusterStore} as two nodes would be, meet in one Redis. The tallies are read back from Redis itself.
 */
class SharedLedgerTest {

    private static final BigDecimal CENT = new BigDecimal("0.01");

    private final List<AutoCloseable> open = new ArrayList<>();
    private RedisProcess redis;
    private RedisCommands<String, String> direct;
    private String prefix;

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A Redis of the test's own, with a client reading it directly; {@code timeout} is every store's. */
    private ClusterSettings redis(Duration timeout) throws Exception {
        redis = RedisProcess.start();
        open.add(redis);
        RedisClient client = RedisClient.create(redis.url());
        open.add(client::shutdown);
        StatefulRedisConnection<String, String> connection = client.connect();
        direct = connection.sync();
        prefix = "baton-test:" + UUID.randomUUID() + ":";
        return new ClusterSettings("redis", redis.url(), prefix, timeout, Duration.ofSeconds(1), "unused");
    }

    /** One node's store, connected. */
    private RedisClusterStore store(ClusterSettings settings) throws InterruptedException {
        RedisClusterStore store = new RedisClusterStore(settings, Thread::new, EngineFixture.TIMER);
        open.add(store);
        store.start(message -> { }, up -> { });
        until("the store connects", store::connected, Duration.ofSeconds(5));
        return store;
    }

    private static Account key(String name, String budget) {
        return new Account(Account.Scope.KEY, name, Budget.parse(budget));
    }

    /** The hash holding {@code account}'s tally for the period {@code at} falls in. */
    private String tally(Account account, Instant at) {
        return prefix + "budget:" + account.id() + ":" + account.periodStart(at);
    }

    /** What Redis says {@code account} spent in the period of {@code at}; 0 when nothing was. */
    private BigDecimal spentInRedis(Account account, Instant at) {
        String spent = direct.hget(tally(account, at), "spent");
        return spent == null ? BigDecimal.ZERO : new BigDecimal(spent);
    }

    /** The holds Redis keeps for {@code account} in the period of {@code at}. */
    private List<String> holdsInRedis(Account account, Instant at) {
        return direct.hkeys(tally(account, at)).stream().filter(f -> f.startsWith("h:")).toList();
    }

    private static Hold hold(SpendLedger ledger, BigDecimal amount, Instant at, Account... accounts) throws Exception {
        return ledger.hold(List.of(accounts), amount, at).get(5, TimeUnit.SECONDS);
    }

    @Test
    void concurrentHoldsFromTwoNodesGrantExactlyTheBudgetAndTheTallyIsTheSumOfTheCosts() throws Exception {
        // A generous timeout: this test is about atomicity, not about a busy machine's slow answers.
        ClusterSettings settings = redis(Duration.ofSeconds(2));
        SharedLedger a = new SharedLedger(store(settings));
        SharedLedger b = new SharedLedger(store(settings));
        Account alice = key("alice", "1.00/1d");
        Instant at = Instant.now();

        ExecutorService threads = Executors.newFixedThreadPool(16);
        List<Future<Hold>> asked = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                SharedLedger node = i % 2 == 0 ? a : b;
                asked.add(threads.submit(() -> hold(node, CENT, at, alice)));
            }
            List<Hold.Granted> granted = new ArrayList<>();
            for (Future<Hold> f : asked) {
                Hold h = f.get(30, TimeUnit.SECONDS);
                if (h instanceof Hold.Granted g) {
                    assertFalse(g.local(), "held in Redis, not in a node's memory");
                    granted.add(g);
                } else {
                    Hold.Refused r = (Hold.Refused) h;
                    assertEquals(alice, r.account());
                    assertEquals(0, r.committed().compareTo(BigDecimal.ONE), "refused at the full budget: "
                            + r.committed());
                }
            }
            assertEquals(100, granted.size(), "200 holds of 0.01 against 1.00 from two nodes grant exactly 100");
            assertEquals(100, holdsInRedis(alice, at).size());

            // Each settled at a cost up to its amount, from 16 threads on both nodes.
            BigDecimal expected = BigDecimal.ZERO;
            List<Future<?>> settled = new ArrayList<>();
            for (int i = 0; i < granted.size(); i++) {
                Hold.Granted g = granted.get(i);
                BigDecimal cost = new BigDecimal("0.0001").multiply(BigDecimal.valueOf(i + 1)); // 0.0001 .. 0.01
                expected = expected.add(cost);
                SharedLedger node = i % 2 == 0 ? b : a; // settled on either node, whichever held it
                settled.add(threads.submit(() -> node.settle(g, cost)));
            }
            for (Future<?> f : settled) {
                f.get(30, TimeUnit.SECONDS);
            }
            until("every hold is settled in Redis", () -> holdsInRedis(alice, at).isEmpty(), Duration.ofSeconds(10));
            assertEquals(0, spentInRedis(alice, at).compareTo(expected), "the tally in Redis, "
                    + spentInRedis(alice, at) + ", is the sum of the costs, " + expected);
        } finally {
            threads.shutdownNow();
        }

        // What the settlements freed is free on both nodes: 1.00 - 0.505 spent.
        Hold rest = hold(b, new BigDecimal("0.495"), at, alice);
        assertInstanceOf(Hold.Granted.class, rest);
        Hold.Refused over = (Hold.Refused) hold(a, new BigDecimal("0.000001"), at, alice);
        assertEquals(0, over.committed().compareTo(BigDecimal.ONE), over.toString());
    }

    @Test
    void aHoldAgainstSeveralAccountsIsAllOrNothing() throws Exception {
        ClusterSettings settings = redis(Duration.ofSeconds(2));
        SharedLedger a = new SharedLedger(store(settings));
        SharedLedger b = new SharedLedger(store(settings));
        Account bob = key("bob", "1.00/1d");
        Account route = new Account(Account.Scope.ROUTE, "chat", Budget.parse("0.05/1d"));
        Instant at = Instant.now();

        for (int i = 0; i < 5; i++) {
            assertInstanceOf(Hold.Granted.class, hold(a, CENT, at, route));
        }
        Hold.Refused refused = (Hold.Refused) hold(b, CENT, at, bob, route);
        assertEquals(route, refused.account(), "the route is what is full");
        assertEquals(0, refused.committed().compareTo(new BigDecimal("0.05")), refused.toString());
        assertEquals(at.truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(1)), refused.resetAt(), "midnight UTC");
        assertTrue(holdsInRedis(bob, at).isEmpty(), "nothing held on the key: " + holdsInRedis(bob, at));
        assertInstanceOf(Hold.Granted.class, hold(a, BigDecimal.ONE, at, bob), "the key's whole budget is free");

        // The other order: a route with room first, then the key, now full: the route takes nothing either.
        Account roomy = new Account(Account.Scope.ROUTE, "roomy", Budget.parse("1.00/1d"));
        Hold.Refused keyFull = (Hold.Refused) hold(b, CENT, at, roomy, bob);
        assertEquals(bob, keyFull.account(), "the key is what is full");
        assertTrue(holdsInRedis(roomy, at).isEmpty(), "nothing held on the route: " + holdsInRedis(roomy, at));
    }

    @Test
    void aHoldWhoseLeasePassedIsForgotten() throws Exception {
        ClusterSettings settings = redis(Duration.ofSeconds(2));
        RedisClusterStore store = store(settings);
        List<ClusterStore.Tally> tallies = List.of(new ClusterStore.Tally("budget:lease", BigDecimal.ONE,
                Duration.ofMinutes(5)));
        Instant now = Instant.now();

        // Through the store: a hold until now + 1 s fills the budget until then, and no longer.
        assertTrue(store.hold(tallies, "short", BigDecimal.ONE, now, now.plusSeconds(1)).get(5, TimeUnit.SECONDS)
                .held());
        ClusterStore.Counted full = store.hold(tallies, "second", CENT, now.plusMillis(999), now.plusSeconds(60))
                .get(5, TimeUnit.SECONDS);
        assertEquals(0, full.refused());
        assertEquals(0, BigDecimal.ONE.compareTo(full.committed().get(0)));
        assertTrue(store.hold(tallies, "third", BigDecimal.ONE, now.plusMillis(1001), now.plusSeconds(60))
                .get(5, TimeUnit.SECONDS).held(), "the first hold's lease passed: it no longer counts");
        assertFalse(direct.hexists(prefix + "budget:lease", "h:short"), "and it is gone from Redis");

        // Through the ledger: a node that died holding a whole budget frees it after the lease.
        SharedLedger ledger = new SharedLedger(store);
        Account carol = key("carol", "1.00/1d");
        Instant start = carol.budget().periodStart(now).plusSeconds(60);
        assertInstanceOf(Hold.Granted.class, hold(ledger, BigDecimal.ONE, start, carol)); // never settled
        assertInstanceOf(Hold.Refused.class, hold(ledger, CENT, start.plus(SharedLedger.LEASE), carol));
        assertInstanceOf(Hold.Granted.class, hold(ledger, BigDecimal.ONE, start.plus(SharedLedger.LEASE).plusMillis(1),
                carol));
    }

    @Test
    void aHoldSettledAfterThePeriodChangedDoesNotCountInTheNewPeriod() throws Exception {
        ClusterSettings settings = redis(Duration.ofSeconds(2));
        SharedLedger a = new SharedLedger(store(settings));
        SharedLedger b = new SharedLedger(store(settings));
        Account dave = key("dave", "1.00/1h");
        Instant late = dave.budget().periodStart(Instant.now()).plus(Duration.ofMinutes(59));
        Instant next = late.plus(Duration.ofMinutes(2)); // the next hour

        Hold.Granted old = (Hold.Granted) hold(a, new BigDecimal("0.80"), late, dave);
        assertInstanceOf(Hold.Granted.class, hold(b, new BigDecimal("0.80"), next, dave),
                "a new period: the last one's hold does not count");
        a.settle(old, new BigDecimal("0.80"));
        until("the old hold is settled", () -> holdsInRedis(dave, late).isEmpty(), Duration.ofSeconds(5));

        assertEquals(0, spentInRedis(dave, next).signum(), "nothing spent in the new period");
        assertEquals(0, spentInRedis(dave, late).compareTo(new BigDecimal("0.80")), "the cost is in its own period");
        assertInstanceOf(Hold.Granted.class, hold(b, new BigDecimal("0.20"), next, dave));
        Hold.Refused full = (Hold.Refused) hold(a, CENT, next, dave);
        assertEquals(0, full.committed().compareTo(BigDecimal.ONE), full.toString());
        assertEquals(next.plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.HOURS), full.resetAt());
    }

    @Test
    void withRedisDownEachNodeHoldsInItsOwnMemoryWithoutWaitingAndGoesBackToRedisAfter() throws Exception {
        ClusterSettings settings = redis(Duration.ofMillis(50));
        RedisClusterStore storeA = store(settings);
        RedisClusterStore storeB = store(settings);
        SharedLedger a = new SharedLedger(storeA);
        SharedLedger b = new SharedLedger(storeB);
        Account erin = key("erin", "0.05/1d");
        Instant at = Instant.now();
        Hold.Granted inRedis = (Hold.Granted) hold(a, CENT, at, erin);
        assertFalse(inRedis.local());

        redis.kill();
        // Right after the kill, before the store noticed: the hold fails in Redis and is taken in memory.
        long start = System.nanoTime();
        Hold first = hold(a, CENT, at, erin);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("a hold right after Redis was killed answered in %d ms (store timeout %d ms)%n", millis,
                settings.timeout().toMillis());
        assertTrue(millis <= settings.timeout().toMillis() + 100, "no wait past the store's timeout: " + millis + " ms");
        assertTrue(((Hold.Granted) first).local(), "held in memory");
        until("both stores see Redis gone", () -> !storeA.connected() && !storeB.connected(), Duration.ofSeconds(2));
        a.settle(inRedis, CENT); // cannot reach Redis: lapses there, never throws

        // Per node, from what each last saw in Redis: A saw 0.01 committed there and holds 0.01 more in memory, so
        // three more fit; B, which saw nothing, takes five.
        List<Hold.Granted> heldOnA = new ArrayList<>(List.of((Hold.Granted) first));
        for (int i = 0; i < 3; i++) {
            heldOnA.add((Hold.Granted) hold(a, CENT, at, erin));
        }
        Hold.Refused fullOnA = (Hold.Refused) hold(a, CENT, at, erin);
        assertEquals(0, fullOnA.committed().compareTo(new BigDecimal("0.05")), fullOnA.toString());
        for (int i = 0; i < 5; i++) {
            assertTrue(((Hold.Granted) hold(b, CENT, at, erin)).local());
        }
        assertInstanceOf(Hold.Refused.class, hold(b, CENT, at, erin));
        heldOnA.forEach(g -> assertTrue(g.local()));

        // Settled in memory: one released without cost frees its room, one settled at its cost does not.
        a.settle(heldOnA.get(0), BigDecimal.ZERO);
        assertInstanceOf(Hold.Granted.class, hold(a, CENT, at, erin));
        a.settle(heldOnA.get(1), CENT);
        Hold.Refused stillFull = (Hold.Refused) hold(a, CENT, at, erin);
        assertEquals(0, stillFull.committed().compareTo(new BigDecimal("0.05")), stillFull.toString());

        redis.restart(); // empty
        until("both stores reconnect", () -> storeA.connected() && storeB.connected(), Duration.ofSeconds(5));
        Hold.Granted back = (Hold.Granted) hold(b, CENT, at, erin);
        assertFalse(back.local(), "held in Redis again");
        assertEquals(List.of("h:" + back.id()), holdsInRedis(erin, at));
        a.settle(heldOnA.get(2), CENT); // a hold made in memory is settled in memory, also once Redis is back
        b.settle(back, CENT);
        until("settled in Redis", () -> holdsInRedis(erin, at).isEmpty(), Duration.ofSeconds(5));
        assertEquals(0, spentInRedis(erin, at).compareTo(CENT), "only what was held in Redis is spent there");
    }

    @Test
    void aHoldThatTimedOutWhileRedisWasFrozenIsNotLeftHeldInRedis() throws Exception {
        ClusterSettings settings = redis(Duration.ofMillis(50));
        RedisClusterStore store = store(settings);
        SharedLedger ledger = new SharedLedger(store);
        Account frank = key("frank", "1.00/1d");
        Instant at = Instant.now();

        redis.freeze(true);
        // The first hold's script is sent and waits out the scripts' timeout (1 s: a busy Redis is worth waiting for,
        // since a hold in memory lets a burst spend the budget once per node). By then the heartbeat (500 ms) has
        // seen Redis frozen, so the next holds go to memory without sending anything.
        long[] millis = new long[3];
        for (int i = 0; i < millis.length; i++) {
            long start = System.nanoTime();
            Hold.Granted inMemory = (Hold.Granted) hold(ledger, new BigDecimal("0.25"), at, frank);
            millis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(inMemory.local(), "the store timed out: held in memory");
            ledger.settle(inMemory, new BigDecimal("0.25"));
        }
        System.out.printf("holds with Redis frozen answered in %s ms (script timeout %d ms)%n",
                Arrays.toString(millis), RedisClusterStore.MIN_SCRIPT_TIMEOUT.toMillis());
        long scriptTimeout = RedisClusterStore.MIN_SCRIPT_TIMEOUT.toMillis();
        assertTrue(millis[0] >= scriptTimeout - 50 && millis[0] < scriptTimeout + 500, "the first hold waited for the"
                + " script's timeout and no longer: " + millis[0] + " ms");
        assertTrue(Math.max(millis[1], millis[2]) <= 75, "then no wait at all: " + Arrays.toString(millis));

        // The script was sent before the timeout: Redis runs it once thawed. The node took the hold in memory
        // instead, so nothing may stay held in Redis for the hour of a lease.
        redis.freeze(false);
        until("the store answers again", store::connected, Duration.ofSeconds(5));
        until("Redis keeps no hold nobody will settle", () -> holdsInRedis(frank, at).isEmpty(),
                Duration.ofSeconds(2));
        assertInstanceOf(Hold.Granted.class, hold(ledger, BigDecimal.ONE, at, frank), "the whole budget is free");
        assertEquals(0, spentInRedis(frank, at).signum(), "what was spent in memory stays there");
    }

    @Test
    void amountsWithManyDecimalsKeepTheTallyExact() throws Exception {
        ClusterSettings settings = redis(Duration.ofSeconds(2));
        SharedLedger a = new SharedLedger(store(settings));
        SharedLedger b = new SharedLedger(store(settings));
        Account grace = key("grace", "1000/1d");
        Instant at = Instant.now();
        Random random = new Random(31);

        int operations = 400;
        BigDecimal expected = BigDecimal.ZERO;
        for (int i = 0; i < operations; i++) {
            SharedLedger node = i % 2 == 0 ? a : b;
            // A price of up to a few millionths per token, to 12 decimals, times a token count.
            BigDecimal price = new BigDecimal("0.000000001").multiply(BigDecimal.valueOf(1 + random.nextInt(9_999)))
                    .add(new BigDecimal("0.000000000001"));
            BigDecimal cost = price.multiply(BigDecimal.valueOf(1 + random.nextInt(4000)));
            Hold.Granted g = (Hold.Granted) hold(node, cost, at, grace);
            node.settle(g, cost);
            expected = expected.add(cost);
        }
        BigDecimal total = expected;
        until("every hold is settled", () -> holdsInRedis(grace, at).isEmpty(), Duration.ofSeconds(10));
        BigDecimal drift = spentInRedis(grace, at).subtract(total).abs();
        System.out.printf("%d settlements, %s spent: Redis says %s, drift %s%n", operations, total.toPlainString(),
                spentInRedis(grace, at).toPlainString(), drift.toPlainString());
        assertTrue(drift.compareTo(new BigDecimal("1e-9").multiply(BigDecimal.valueOf(operations))) <= 0,
                "drift " + drift + " over " + operations + " operations");

        // Up to exactly the budget, to the millionth, and not a millionth more.
        BigDecimal rest = grace.budget().amount().subtract(spentInRedis(grace, at));
        assertInstanceOf(Hold.Granted.class, hold(a, rest, at, grace), "the rest, " + rest + ", fits");
        assertInstanceOf(Hold.Refused.class, hold(b, new BigDecimal("0.000001"), at, grace));

        // The script compares doubles with a margin of 1e-9: however many crumbs are asked, the budget is passed by
        // no more than that margin in all.
        int crumbs = 0;
        while (crumbs < 100 && hold(a, new BigDecimal("0.0000000001"), at, grace) instanceof Hold.Granted) {
            crumbs++;
        }
        System.out.printf("holds of 1e-10 granted at a full budget: %d%n", crumbs);
        assertTrue(crumbs <= 10, crumbs + " holds of 1e-10 past a full budget");
    }

    @Test
    void aTinyCommittedAmountParsesBackWhateverWayLuaPrintsIt() throws Exception {
        ClusterSettings settings = redis(Duration.ofSeconds(2));
        SharedLedger ledger = new SharedLedger(store(settings));
        Account tiny = new Account(Account.Scope.CONNECTION, "tiny", Budget.parse("0.00001/1d"));
        Account huge = new Account(Account.Scope.ROUTE, "huge", Budget.parse("100000000000000000/1d"));
        Instant at = Instant.now();

        assertInstanceOf(Hold.Granted.class, hold(ledger, new BigDecimal("0.000009"), at, tiny));
        Hold.Refused refused = (Hold.Refused) hold(ledger, new BigDecimal("0.000002"), at, tiny); // Lua: 9e-06
        assertEquals(0, refused.committed().compareTo(new BigDecimal("0.000009")), refused.toString());

        assertInstanceOf(Hold.Granted.class, hold(ledger, new BigDecimal("90000000000000000"), at, huge));
        Hold.Refused big = (Hold.Refused) hold(ledger, new BigDecimal("20000000000000000"), at, huge); // Lua: 9e+16
        assertEquals(0, big.committed().compareTo(new BigDecimal("90000000000000000")), big.toString());
    }
}
