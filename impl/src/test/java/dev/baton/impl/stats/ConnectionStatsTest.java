package dev.baton.impl.stats;

import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.health.MutableClock;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConnectionStatsTest {

    private static final String MODEL = "gpt-5.4-mini";

    private final MutableClock clock = new MutableClock();
    private final ConnectionStats stats = new ConnectionStats(clock);

    @Test
    void aFailureOnThePrimaryServedByTheStandbyIsAFallbackOfThePrimaryOnly() {
        stats.finished(served("standby", fail("primary", FailureKind.SERVER_ERROR), fail("primary", FailureKind.SERVER_ERROR),
                ok("standby")), null);

        ConnectionStats.Window primary = stats.window("primary");
        assertEquals(1, primary.requests(), "one request, however many attempts");
        assertEquals(1, primary.fallbacks());
        assertEquals(2L, primary.failures().get(FailureKind.SERVER_ERROR));
        assertEquals(1.0, primary.fallbackRate());
        ConnectionStats.Window standby = stats.window("standby");
        assertEquals(1, standby.requests());
        assertEquals(0, standby.fallbacks());
        assertEquals(0.0, standby.fallbackRate());
    }

    @Test
    void aFailureCuredByARetryOnTheSameTargetIsNoFallback() {
        stats.finished(served("primary", fail("primary", FailureKind.CONNECTION), ok("primary")), null);

        ConnectionStats.Window w = stats.window("primary");
        assertEquals(1, w.requests());
        assertEquals(0, w.fallbacks());
        assertEquals(1L, w.failures().get(FailureKind.CONNECTION));
    }

    @Test
    void aRequestNothingServedIsNoFallbackButItsFailuresCount() {
        stats.finished(unserved(fail("primary", FailureKind.TIMEOUT), fail("standby", FailureKind.RATE_LIMIT)), null);

        assertEquals(0, stats.window("primary").fallbacks());
        assertEquals(1L, stats.window("primary").failures().get(FailureKind.TIMEOUT));
        assertEquals(1L, stats.window("standby").failures().get(FailureKind.RATE_LIMIT));
    }

    @Test
    void theRateIsFallbacksOverRequestsThatAttemptedTheConnection() {
        stats.finished(served("primary", ok("primary")), null);
        stats.finished(served("primary", ok("primary")), null);
        stats.finished(served("primary", ok("primary")), null);
        stats.finished(served("standby", fail("primary", FailureKind.CREDENTIAL), ok("standby")), null);
        stats.finished(served("standby", ok("standby")), null); // never attempted primary

        ConnectionStats.Window w = stats.window("primary");
        assertEquals(4, w.requests());
        assertEquals(1, w.fallbacks());
        assertEquals(0.25, w.fallbackRate());
    }

    @Test
    void everyKindIsListedEvenWhenZero() {
        assertEquals(Arrays.asList(FailureKind.values()), List.copyOf(stats.window("nobody").failures().keySet()));
        assertEquals(0, stats.window("nobody").requests());
        assertEquals(Duration.ofMinutes(15), stats.window("nobody").length());
    }

    @Test
    void countsLeaveTheWindowMinuteByMinute() {
        stats.finished(served("standby", fail("primary", FailureKind.SERVER_ERROR), ok("standby")), null);
        clock.advance(Duration.ofMinutes(10));
        stats.finished(served("primary", ok("primary")), null);

        assertEquals(2, stats.window("primary").requests());
        clock.advance(Duration.ofMinutes(5)); // the first request's minute has just left the 15-minute window
        ConnectionStats.Window w = stats.window("primary");
        assertEquals(1, w.requests());
        assertEquals(0, w.fallbacks());
        assertEquals(0L, w.failures().get(FailureKind.SERVER_ERROR));

        clock.advance(Duration.ofMinutes(10));
        assertEquals(0, stats.window("primary").requests());
    }

    @Test
    void aBucketIsReusedAfterTheRingWrapsWithoutKeepingOldCounts() {
        stats.finished(served("primary", ok("primary")), null);
        clock.advance(Duration.ofMinutes(15)); // the same ring slot, a new minute
        stats.finished(served("standby", fail("primary", FailureKind.TIMEOUT), ok("standby")), null);

        ConnectionStats.Window w = stats.window("primary");
        assertEquals(1, w.requests());
        assertEquals(1, w.fallbacks());
    }

    @Test
    void anAbandonedAttemptCountsAsAnAttemptButNotAsAFailure() {
        AttemptRecord abandoned = new AttemptRecord("primary/" + MODEL, "primary", "openai", MODEL, "primary", 0,
                clock.instant(), 5, null, 0, null, null, null, null, false, true);
        stats.finished(unserved(abandoned), null);

        ConnectionStats.Window w = stats.window("primary");
        assertEquals(1, w.requests());
        assertEquals(0L, w.failures().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void theWindowMustBeWholeBuckets() {
        assertThrows(IllegalArgumentException.class,
                () -> new ConnectionStats(clock, Duration.ofSeconds(90), Duration.ofMinutes(1)));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionStats(clock, Duration.ofMinutes(1), Duration.ZERO));
    }

    private AttemptRecord fail(String connection, FailureKind kind) {
        return new AttemptRecord(connection + "/" + MODEL, connection, "openai", MODEL, "primary", 0, clock.instant(), 5,
                kind, 503, null, null, "failed", null, false, false);
    }

    private AttemptRecord ok(String connection) {
        return new AttemptRecord(connection + "/" + MODEL, connection, "openai", MODEL, "primary", 0, clock.instant(), 5,
                null, 200, null, null, null, null, false, false);
    }

    private RequestRecord served(String connection, AttemptRecord... attempts) {
        return record(new ServedBy(MODEL, "openai", connection, "primary", "demo"), attempts);
    }

    private RequestRecord unserved(AttemptRecord... attempts) {
        return record(null, attempts);
    }

    private RequestRecord record(ServedBy servedBy, AttemptRecord... attempts) {
        return new RequestRecord("req_" + System.nanoTime(), clock.instant(), servedBy != null, servedBy != null ? 200 : 502,
                null, "demo", "demo", servedBy, List.of(attempts), List.of(), false, servedBy != null, null, 10, null, false,
                null, null, RequestRecord.REQUEST);
    }
}
