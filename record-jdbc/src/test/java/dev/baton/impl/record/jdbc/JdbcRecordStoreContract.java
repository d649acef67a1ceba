package dev.baton.impl.record.jdbc;

import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.budget.Account;
import dev.baton.impl.health.MutableClock;
import dev.baton.impl.record.RecordQuery;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every database must do for {@link JdbcRecordStore}, run against real databases by the
 * subclasses. Each test gets tables of its own (a prefix unique to this class run and test) and
 * drops them afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcRecordStoreContract {

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final Instant NOW = MutableClock.START;

    private final String runPrefix = "bt" + UUID.randomUUID().toString().replace("-", "").substring(0, 8) + "_";
    private final List<JdbcRecordStore> stores = new ArrayList<>();
    private final MutableClock clock = new MutableClock(NOW);
    private DataSource database;
    private ControllableDataSource dataSource;
    private String prefix;
    private int testNumber;

    protected abstract DataSource createDataSource();

    @BeforeAll
    void connect() {
        database = createDataSource();
    }

    @BeforeEach
    void freshTables() {
        prefix = runPrefix + "n" + (++testNumber) + "_";
        dataSource = new ControllableDataSource(database);
        clock.set(NOW);
    }

    @AfterEach
    void dropTables() throws SQLException {
        stores.forEach(JdbcRecordStore::close);
        stores.clear();
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("requests", "attempts", "skipped")) {
                s.execute("DROP TABLE IF EXISTS " + prefix + table);
            }
        }
    }

    @Test
    void roundTripFromTheDatabaseEqualsTheOriginal() throws Exception {
        RequestRecord servedByStandby = servedByStandby("req_roundtrip_1", NOW.minusSeconds(5));
        RequestRecord degraded = degraded("req_roundtrip_2", NOW.minusSeconds(4));
        JdbcRecordStore writing = store(settings());
        writing.save(servedByStandby);
        writing.save(degraded);
        writing.close();
        assertEquals(2, writing.written());

        JdbcRecordStore reading = store(settings());
        RequestRecord read = reading.find(servedByStandby.id()).orElseThrow();
        assertEquals(servedByStandby.usage(), read.usage());
        assertEquals(servedByStandby, read);
        assertEquals(degraded, reading.find(degraded.id()).orElseThrow());
        assertEquals(Optional.empty(), reading.find("req_unknown"));
    }

    @Test
    void tablesFromBeforeCostsGainTheNewColumnsAndKeepTheirRows() throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            // The requests table as the first release made it, with one row in it.
            s.execute("CREATE TABLE " + prefix + "requests (id VARCHAR NOT NULL PRIMARY KEY, started_at BIGINT NOT NULL,"
                    + " ok BOOLEAN NOT NULL, status VARCHAR NOT NULL, http_status INTEGER NOT NULL, error_code VARCHAR,"
                    + " model_requested VARCHAR, route_name VARCHAR, served_model VARCHAR, served_provider VARCHAR,"
                    + " served_connection VARCHAR, served_position VARCHAR, served_route VARCHAR, stream BOOLEAN NOT NULL,"
                    + " committed BOOLEAN NOT NULL, first_token_ms BIGINT, latency_ms BIGINT NOT NULL,"
                    + " usage_json VARCHAR, degraded BOOLEAN NOT NULL)");
            s.execute("CREATE TABLE " + prefix + "attempts (request_id VARCHAR NOT NULL, seq INTEGER NOT NULL,"
                    + " target VARCHAR NOT NULL, connection VARCHAR, provider VARCHAR, model VARCHAR, position VARCHAR,"
                    + " retry INTEGER NOT NULL, started_at BIGINT NOT NULL, latency_ms BIGINT NOT NULL, kind VARCHAR,"
                    + " http_status INTEGER NOT NULL, error_type VARCHAR, error_code VARCHAR, message VARCHAR,"
                    + " retry_after_ms BIGINT, after_commit BOOLEAN NOT NULL, abandoned BOOLEAN NOT NULL,"
                    + " PRIMARY KEY (request_id, seq))");
            s.execute("CREATE TABLE " + prefix + "skipped (request_id VARCHAR NOT NULL, seq INTEGER NOT NULL,"
                    + " target VARCHAR, position VARCHAR, reason VARCHAR, PRIMARY KEY (request_id, seq))");
            s.execute("INSERT INTO " + prefix + "requests VALUES ('req_before', " + NOW.toEpochMilli() + ", TRUE, 'ok',"
                    + " 200, NULL, 'chat', 'chat', 'gpt-4o', 'openai', 'east', 'primary', 'chat', FALSE, FALSE, NULL, 40,"
                    + " NULL, FALSE)");
        }
        RequestRecord priced = servedByStandby("req_after", NOW);
        JdbcRecordStore store = store(settings());
        store.save(priced);
        store.close();
        assertEquals(1, store.written());

        JdbcRecordStore reading = store(settings());
        assertEquals(priced, reading.find("req_after").orElseThrow());
        RequestRecord before = reading.find("req_before").orElseThrow();
        assertNull(before.cost());
        assertNull(before.caller());
        assertEquals("gpt-4o", before.servedBy().model());
    }

    @Test
    void spendIsSummedPerKeyRouteAndConnectionFromThePeriodStartOnly() throws Exception {
        Instant periodStart = NOW.minusSeconds(3600);
        JdbcRecordStore store = store(settings());
        store.save(withCost(servedByStandby("req_spend_old", periodStart.minusMillis(1)), "0.5", "team-a"));
        store.save(withCost(servedByStandby("req_spend_1", periodStart), "0.25", "team-a"));
        store.save(withCost(servedByStandby("req_spend_2", NOW), "0.125", "team-a"));
        store.save(withCost(servedByStandby("req_spend_other", NOW), "7", "team-b"));
        store.save(withCost(servedByStandby("req_spend_unpriced", NOW), null, "team-a"));
        assertTrue(store.flush(Duration.ofSeconds(10)));

        assertEquals(0, new BigDecimal("0.375").compareTo(store.spentSince(Account.Scope.KEY, "team-a", periodStart)));
        assertEquals(0, BigDecimal.ZERO.compareTo(store.spentSince(Account.Scope.KEY, "nobody", periodStart)));
        // every one of them named the route "chat" and was served by the connection "west"
        assertEquals(0, new BigDecimal("7.375").compareTo(store.spentSince(Account.Scope.ROUTE, "chat", periodStart)));
        assertEquals(0, new BigDecimal("7.375").compareTo(store.spentSince(Account.Scope.CONNECTION, "west",
                periodStart)));
        assertEquals(0, BigDecimal.ZERO.compareTo(store.spentSince(Account.Scope.CONNECTION, "east", periodStart)));
    }

    private static RequestRecord withCost(RequestRecord r, String amount, String caller) {
        return new RequestRecord(r.id(), r.startedAt(), r.ok(), r.httpStatus(), r.errorCode(), r.modelRequested(),
                r.routeName(), r.servedBy(), r.attempts(), r.skipped(), r.stream(), r.committed(), r.firstTokenMillis(),
                r.latencyMillis(), r.usage(), r.degraded(), amount == null ? null : new Cost(new BigDecimal(amount),
                "USD", "custom"), caller, r.kind());
    }

    @Test
    void searchHonoursTheTimeRange() throws Exception {
        JdbcRecordStore writing = store(settings());
        for (int i = 0; i < 10; i++) {
            writing.save(servedByStandby("req_t" + i, NOW.minusSeconds(100 - i * 10L)));
        }
        writing.close();
        JdbcRecordStore reading = store(settings());
        List<RequestRecord> found = reading.search(new RecordQuery(NOW.minusSeconds(80), NOW.minusSeconds(40), null,
                null, 100));
        assertEquals(List.of("req_t5", "req_t4", "req_t3", "req_t2"), ids(found), "from inclusive, to exclusive");
        assertEquals(10, reading.search(new RecordQuery(null, null, null, null, 100)).size());
    }

    @Test
    void searchByConnectionMatchesAnyAttempt() throws Exception {
        JdbcRecordStore writing = store(settings());
        writing.save(servedByStandby("req_c1", NOW.minusSeconds(3)));
        writing.save(degraded("req_c2", NOW.minusSeconds(2)));
        writing.close();
        JdbcRecordStore reading = store(settings());
        assertEquals(List.of("req_c2", "req_c1"), ids(reading.search(query("east", null))),
                "east has an attempt in both");
        assertEquals(List.of("req_c1"), ids(reading.search(query("west", null))), "west only served the first");
        assertEquals(List.of(), reading.search(query("north", null)), "skipped targets are not attempts");
    }

    @Test
    void searchByOutcome() throws Exception {
        JdbcRecordStore writing = store(settings());
        writing.save(servedByStandby("req_o1", NOW.minusSeconds(3)));
        writing.save(degraded("req_o2", NOW.minusSeconds(2)));
        writing.save(failed("req_o3", NOW.minusSeconds(1)));
        writing.close();
        JdbcRecordStore reading = store(settings());
        assertEquals(List.of("req_o1"), ids(reading.search(query(null, "ok"))));
        assertEquals(List.of("req_o2"), ids(reading.search(query(null, "degraded"))));
        assertEquals(List.of("req_o3"), ids(reading.search(query(null, "error"))));
        assertEquals(List.of("req_o3"), ids(reading.search(query("east", "error"))));
    }

    @Test
    void searchIsNewestFirstLimitedAndMergesRecordsNotYetWritten() throws Exception {
        JdbcRecordStore writing = store(settings());
        for (int i = 0; i < 20; i++) {
            writing.save(failed("req_l" + (char) ('a' + i), NOW.minusSeconds(100 - i)));
        }
        writing.close();
        JdbcRecordStore reading = store(settings());
        assertEquals(List.of("req_lt", "req_ls", "req_lr"), ids(reading.search(new RecordQuery(null, null, null, null,
                3))));

        JdbcRecordStore idleWriter = new JdbcRecordStore(dataSource, settings(), clock, r -> new Thread(() -> { }));
        stores.add(idleWriter);
        idleWriter.save(failed("req_newest", NOW));
        idleWriter.save(failed("req_lt", NOW.minusSeconds(100 - 19)));
        assertEquals(2, idleWriter.queued(), "a writer that never runs: both wait in the queue");
        assertEquals(List.of("req_newest", "req_lt", "req_ls"), ids(idleWriter.search(new RecordQuery(null, null,
                null, null, 3))), "the unwritten record first, and the one in both places once");
        assertEquals(List.of("req_newest"), ids(idleWriter.search(new RecordQuery(NOW, null, null, null, 3))));
    }

    @Test
    void tenThousandRecordsFromFourThreadsAllReachTheDatabase() throws Exception {
        // A queue that holds them all: this is about concurrent saves reaching the database, not the queue's bound
        // (with the default 10,000 a busy machine once dropped 41 while the writer was behind).
        JdbcRecordStore store = store(settings().withQueueCapacity(20_000));
        int threads = 4;
        int perThread = 2500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    store.save(servedByStandby("req_load_" + thread + "_" + i, NOW.minusMillis(i)));
                }
                return null;
            }));
        }
        long began = System.nanoTime();
        start.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        long saved = System.nanoTime();
        store.close();
        long closed = System.nanoTime();
        pool.shutdown();

        System.out.printf("[%s] load: 10000 records saved from 4 threads in %d ms, all written by close() after"
                        + " %d ms%n", getClass().getSimpleName(), TimeUnit.NANOSECONDS.toMillis(saved - began),
                TimeUnit.NANOSECONDS.toMillis(closed - began));
        assertEquals(0, store.dropped());
        assertEquals(0, store.failed());
        assertEquals(10_000, store.written());
        assertEquals(10_000, count("requests"));
        assertEquals(30_000, count("attempts"));
        assertEquals(10_000, count("skipped"));
    }

    @Test
    void aFullQueueDropsToMemoryAndCountsEveryRecord() throws Exception {
        dataSource.delay(100);
        JdbcRecordStore store = store(settings().withQueueCapacity(10).withBatchSize(5));
        int saved = 300;
        Set<String> all = new HashSet<>();
        for (int i = 0; i < saved; i++) {
            RequestRecord r = failed("req_burst_" + i, NOW.minusMillis(i));
            store.save(r);
            all.add(r.id());
        }
        store.close();

        System.out.printf("[%s] overload: %d saved, %d written, %d dropped, %d failed%n",
                getClass().getSimpleName(), saved, store.written(), store.dropped(), store.failed());
        assertTrue(store.dropped() > 0, "a 10-record queue cannot take a burst of 300 behind a slow database");
        assertEquals(saved, store.written() + store.dropped());
        assertEquals(0, store.failed());
        assertEquals(0, store.queued());
        Set<String> inDatabase = idsInDatabase();
        assertEquals(store.written(), inDatabase.size());
        Set<String> droppedIds = new HashSet<>(all);
        droppedIds.removeAll(inDatabase);
        assertEquals(store.dropped(), droppedIds.size());
        for (String id : droppedIds) {
            assertTrue(store.find(id).isPresent(), id + " was dropped from the queue but must still be in memory");
        }
    }

    @Test
    void aDatabaseThatComesBackGetsEveryRecord() throws Exception {
        JdbcRecordStore store = store(settings().withRetries(20, Duration.ofMillis(20)));
        assertTrue(store.flush(Duration.ofSeconds(5)));
        dataSource.down(true);
        for (int i = 0; i < 50; i++) {
            store.save(failed("req_down_" + i, NOW.minusMillis(i)));
        }
        awaitRefused(2); // the first attempt and a retry
        assertEquals(0, store.written());
        assertEquals(50, store.queued());
        dataSource.down(false);

        assertTrue(store.flush(Duration.ofSeconds(15)));
        assertEquals(50, store.written());
        assertEquals(0, store.failed());
        assertEquals(0, store.dropped());
        assertEquals(50, count("requests"));
    }

    @Test
    void aDatabaseThatStaysDownCountsRecordsAsFailedNotLost() throws Exception {
        dataSource.down(true);
        JdbcRecordStore store = store(settings().withRetries(2, Duration.ofMillis(10)));
        for (int i = 0; i < 30; i++) {
            store.save(failed("req_gone_" + i, NOW.minusMillis(i)));
        }
        assertTrue(store.flush(Duration.ofSeconds(10)));
        store.close();
        assertEquals(30, store.failed());
        assertEquals(0, store.written());
        assertEquals(0, store.queued());
        assertTrue(store.find("req_gone_7").isPresent(), "still in memory");
    }

    @Test
    void aRecordTheDatabaseRefusesFailsAloneNotItsBatch() throws Exception {
        JdbcRecordStore first = store(settings());
        first.save(failed("req_dup", NOW.minusSeconds(10)));
        first.close();

        JdbcRecordStore second = store(settings());
        second.save(failed("req_before", NOW.minusSeconds(3)));
        second.save(failed("req_dup", NOW.minusSeconds(2)));
        second.save(failed("req_after", NOW.minusSeconds(1)));
        second.close();
        assertEquals(1, second.failed(), "the duplicate id");
        assertEquals(2, second.written());
        assertEquals(3, count("requests"));
    }

    @Test
    void pruningDeletesOnlyRecordsOlderThanTheRetention() throws Exception {
        JdbcRecordStore store = store(settings().withRetention(Duration.ofDays(30)));
        store.save(servedByStandby("req_old_1", NOW.minus(Duration.ofDays(31))));
        store.save(degraded("req_old_2", NOW.minus(Duration.ofDays(45))));
        store.save(failed("req_old_3", NOW.minus(Duration.ofDays(400))));
        store.save(servedByStandby("req_new_1", NOW.minus(Duration.ofDays(29))));
        store.save(degraded("req_new_2", NOW.minusSeconds(1)));
        assertTrue(store.flush(Duration.ofSeconds(10)));

        assertEquals(3, store.pruneNow());
        assertEquals(0, store.pruneNow());
        assertEquals(2, count("requests"));
        assertEquals(3 + 2, count("attempts"), "only the attempts of the two kept records");
        assertEquals(1 + 1, count("skipped"));
        JdbcRecordStore fresh = store(settings());
        assertFalse(fresh.find("req_old_1").isPresent());
        assertTrue(fresh.find("req_new_1").isPresent());
        assertTrue(fresh.find("req_new_2").isPresent());
    }

    @Test
    void tablesCreatedByFourRacingServersWork() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            done.add(pool.submit(() -> {
                RecordSchema schema = new RecordSchema(prefix);
                try (Connection c = database.getConnection()) {
                    start.await();
                    schema.ensure(c);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        JdbcRecordStore store = store(settings());
        store.save(failed("req_race", NOW));
        store.close();
        assertEquals(1, count("requests"));
    }

    @Test
    void probeRecordsKeepTheirKindAndAreFoundByIt() throws Exception {
        JdbcRecordStore writing = store(settings());
        writing.save(servedByStandby("req_k1", NOW.minusSeconds(3)));
        writing.save(probe("probe_k2", NOW.minusSeconds(2)));
        writing.close();

        JdbcRecordStore reading = store(settings());
        assertEquals(probe("probe_k2", NOW.minusSeconds(2)), reading.find("probe_k2").orElseThrow());
        assertEquals(List.of("probe_k2"), ids(reading.search(new RecordQuery(null, null, null, null, 100,
                RequestRecord.PROBE))));
        assertEquals(List.of("req_k1"), ids(reading.search(new RecordQuery(null, null, null, null, 100,
                RequestRecord.REQUEST))));
        assertEquals(List.of("probe_k2", "req_k1"), ids(reading.search(query(null, null))));
    }

    @Test
    void tablesFromBeforeProbeRecordsGainTheKindColumn() throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            // The requests table as the first release created it, with one row.
            s.execute("CREATE TABLE " + prefix + "requests (id VARCHAR NOT NULL PRIMARY KEY, started_at BIGINT NOT NULL,"
                    + " ok BOOLEAN NOT NULL, status VARCHAR NOT NULL, http_status INTEGER NOT NULL, error_code VARCHAR,"
                    + " model_requested VARCHAR, route_name VARCHAR, served_model VARCHAR, served_provider VARCHAR,"
                    + " served_connection VARCHAR, served_position VARCHAR, served_route VARCHAR,"
                    + " stream BOOLEAN NOT NULL, committed BOOLEAN NOT NULL, first_token_ms BIGINT,"
                    + " latency_ms BIGINT NOT NULL, usage_json VARCHAR, degraded BOOLEAN NOT NULL)");
            s.execute("INSERT INTO " + prefix + "requests VALUES ('req_old', " + NOW.minusSeconds(60).toEpochMilli()
                    + ", FALSE, 'error', 400, 'invalid_request', 'gpt-4o', NULL, NULL, NULL, NULL, NULL, NULL, FALSE,"
                    + " FALSE, NULL, 31, NULL, FALSE)");
        }
        JdbcRecordStore store = store(settings());
        store.save(probe("probe_new", NOW));
        store.close();

        JdbcRecordStore reading = store(settings());
        assertEquals(RequestRecord.REQUEST, reading.find("req_old").orElseThrow().kind(), "old rows are requests");
        assertEquals(RequestRecord.PROBE, reading.find("probe_new").orElseThrow().kind());
    }

    /** Waits until the writer has been refused {@code count} connections while the database is down. */
    private void awaitRefused(long count) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (dataSource.refused() < count) {
            assertTrue(System.nanoTime() - end < 0, "the writer tried " + count + " times within 5 s");
            Thread.sleep(1);
        }
    }

    private JdbcRecordSettings settings() {
        return JdbcRecordSettings.defaults().withTablePrefix(prefix);
    }

    private JdbcRecordStore store(JdbcRecordSettings settings) {
        JdbcRecordStore store = new JdbcRecordStore(dataSource, settings, clock);
        stores.add(store);
        return store;
    }

    private long count(String table) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + prefix + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Set<String> idsInDatabase() throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM " + prefix + "requests")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static RecordQuery query(String connection, String outcome) {
        return new RecordQuery(null, null, connection, outcome, 100);
    }

    private static List<String> ids(List<RequestRecord> records) {
        return records.stream().map(RequestRecord::id).toList();
    }

    /** Rate-limited, then broke after commit, then served by the standby; one target skipped. */
    static RequestRecord servedByStandby(String id, Instant at) {
        JsonObject usage = JSON.createObjectBuilder().add("prompt_tokens", 12).add("completion_tokens", 34)
                .add("total_tokens", 46)
                .add("prompt_tokens_details", JSON.createObjectBuilder().add("cached_tokens", 0)).build();
        List<AttemptRecord> attempts = List.of(
                new AttemptRecord("east/gpt-4o", "east", "openai", "gpt-4o", "primary", 0, at, 120,
                        FailureKind.RATE_LIMIT, 429, "requests", "rate_limit_exceeded",
                        "Rate limit reached for gpt-4o", Duration.ofMillis(7250), false, false),
                new AttemptRecord("east/gpt-4o", "east", "openai", "gpt-4o", "primary", 1, at.plusMillis(130), 2400,
                        FailureKind.SERVER_ERROR, 503, "server_error", null, "The server is overloaded", null, true,
                        false),
                new AttemptRecord("west/claude-sonnet", "west", "anthropic", "claude-sonnet-4", "standby_b", 0,
                        at.plusMillis(2540), 900, null, 200, null, null, null, null, false, false));
        List<SkippedTarget> skipped = List.of(new SkippedTarget("north/gpt-4o", "standby_a",
                "ejected until 2025-03-01T12:05:00Z"));
        return new RequestRecord(id, at, true, 200, null, "chat", "chat",
                new ServedBy("claude-sonnet-4", "anthropic", "west", "standby_b", "chat"), attempts, skipped, true,
                true, 2700L, 3440, usage, false, new Cost(new BigDecimal("0.000546"), "USD", "list"), "team-a",
                RequestRecord.REQUEST);
    }

    /** The caller went away during the only attempt; the policy's degraded answer was given. */
    static RequestRecord degraded(String id, Instant at) {
        List<AttemptRecord> attempts = List.of(
                new AttemptRecord("east/gpt-4o", "east", "openai", "gpt-4o", "primary", 0, at, 50,
                        FailureKind.TIMEOUT, 0, null, null, "no response headers within 10s", null, false, false),
                new AttemptRecord("east/gpt-4o-mini", "east", "openai", "gpt-4o-mini", "standby_a", 0,
                        at.plusMillis(60), 10, null, 0, null, null, null, null, false, true));
        List<SkippedTarget> skipped = List.of(new SkippedTarget("west/claude-sonnet", "standby_b",
                "out of deadline"));
        return new RequestRecord(id, at, false, 200, "upstream_unavailable", "gpt-4o", null, null, attempts,
                skipped, false, false, null, 75, null, true, null, null, RequestRecord.REQUEST);
    }

    /** A background probe that a rejected key failed. */
    static RequestRecord probe(String id, Instant at) {
        List<AttemptRecord> attempts = List.of(new AttemptRecord("east/gpt-4o", "east", "openai", "gpt-4o",
                "probe", 0, at, 12, FailureKind.CREDENTIAL, 401, "invalid_request_error", "invalid_api_key",
                "Incorrect API key provided", null, false, false));
        return new RequestRecord(id, at, false, 401, "credential", "gpt-4o", null, null, attempts, List.of(), false,
                false, null, 12, null, false, null, null, RequestRecord.PROBE);
    }

    /** One invalid-request attempt, nothing skipped, an error for the caller. */
    static RequestRecord failed(String id, Instant at) {
        List<AttemptRecord> attempts = List.of(new AttemptRecord("east/gpt-4o", "east", "openai", "gpt-4o",
                "primary", 0, at, 30, FailureKind.INVALID_REQUEST, 400, "invalid_request_error", "context_length",
                "This model's maximum context length is 128000 tokens", null, false, false));
        return new RequestRecord(id, at, false, 400, "invalid_request", "gpt-4o", null, null, attempts, List.of(),
                false, false, null, 31, null, false, null, null, RequestRecord.REQUEST);
    }
}
