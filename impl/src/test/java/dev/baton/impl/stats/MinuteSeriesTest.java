package dev.baton.impl.stats;

import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.health.MutableClock;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MinuteSeriesTest {

    private final MutableClock clock = new MutableClock();
    private final MinuteSeries series = new MinuteSeries(clock);

    @Test
    void aRoutesMinuteCountsRequestsErrorsFallbacksCostAndLatency() {
        series.finished(served("primary", "primary", 0.001, attempt("primary", null, 12)), null);
        series.finished(served("standby", "standby_a", 0.002, attempt("primary", FailureKind.SERVER_ERROR, 3),
                attempt("standby", null, 470)), null);
        series.finished(unserved(attempt("primary", FailureKind.SERVER_ERROR, 4), attempt("standby",
                FailureKind.TIMEOUT, 900)), null);

        MinuteSeries.RouteSeries demo = series.routes(60).get(0);
        assertEquals("demo", demo.route());
        MinuteSeries.Minute m = demo.series().get(0);
        assertEquals(3, m.requests());
        assertEquals(1, m.errors());
        assertEquals(1, m.fallbacks(), "served by standby_a after primary failed");
        assertEquals(0.003, m.cost(), 1e-12);
        assertEquals(500, m.latencyP50(), "the bucket of the middle latency (470 ms: up to 500)");
        assertEquals(1_000, m.latencyP95());

        MinuteSeries.TargetSeries primary = demo.targets().get(0);
        assertEquals("primary/gpt-5.4-mini", primary.target());
        assertEquals(3, primary.series().get(0).attempts());
        assertEquals(2, primary.series().get(0).failures());
        assertEquals(1, primary.series().get(0).served());
    }

    @Test
    void onlyTheLastHourIsKeptAndAnOldMinutesSlotIsReused() {
        series.finished(served("primary", "primary", 0, attempt("primary", null, 10)), null);
        clock.advance(Duration.ofMinutes(60));
        assertTrue(series.routes(60).isEmpty(), "a minute older than an hour is not shown");

        series.finished(served("primary", "primary", 0, attempt("primary", null, 10)), null);
        List<MinuteSeries.Minute> minutes = series.routes(60).get(0).series();
        assertEquals(1, minutes.size());
        assertEquals(1, minutes.get(0).requests(), "the slot was cleared for the new minute");
    }

    @Test
    void streamsGiveTheTimeToFirstTokenAndTodaysSpendIsByRouteModelAndKey() {
        RequestRecord stream = record(new ServedBy("gpt-5.4-mini", "openai", "primary", "primary", "demo"), true, 150L,
                "team-a", 0.5, attempt("primary", null, 400));
        series.finished(stream, null);
        series.finished(served("primary", "primary", 0.25, attempt("primary", null, 10)), null);

        MinuteSeries.Minute m = series.routes(60).get(0).series().get(0);
        assertEquals(200, m.firstTokenP50());
        MinuteSeries.Spend.Day today = series.today();
        assertEquals(0, new BigDecimal("0.75").compareTo(today.byRoute().get("demo").cost()));
        assertEquals(2, today.byModel().get("gpt-5.4-mini").requests());
        assertEquals(0, new BigDecimal("0.5").compareTo(today.byKey().get("team-a").cost()));
        assertEquals(1, today.byKey().get(null).requests(), "callers without a named key");

        clock.advance(Duration.ofDays(1));
        assertTrue(series.today().byRoute().isEmpty(), "a new day starts at zero");
    }

    @Test
    void percentilesAreBucketBounds() {
        assertNull(MinuteSeries.percentile(new int[MinuteSeries.BOUNDS_MS.length + 1], 0.5));
        int[] buckets = new int[MinuteSeries.BOUNDS_MS.length + 1];
        buckets[MinuteSeries.bucket(3)] = 9;
        buckets[MinuteSeries.bucket(70_000)] = 1;
        assertEquals(5, MinuteSeries.percentile(buckets, 0.5));
        assertEquals(Long.MAX_VALUE, MinuteSeries.percentile(buckets, 0.95), "above the last bound");
    }

    private AttemptRecord attempt(String connection, FailureKind kind, long latency) {
        return new AttemptRecord(connection + "/gpt-5.4-mini", connection, "openai", "gpt-5.4-mini", "primary", 0,
                clock.instant(), latency, kind, kind == null ? 200 : 503, null, null, null, null, false, false);
    }

    private RequestRecord served(String connection, String position, double cost, AttemptRecord... attempts) {
        return record(new ServedBy("gpt-5.4-mini", "openai", connection, position, "demo"), false, null, null, cost,
                attempts);
    }

    private RequestRecord unserved(AttemptRecord... attempts) {
        return record(null, false, null, null, 0, attempts);
    }

    private RequestRecord record(ServedBy servedBy, boolean stream, Long firstToken, String caller, double cost,
                                 AttemptRecord... attempts) {
        long latency = attempts.length == 0 ? 0 : attempts[attempts.length - 1].latencyMillis();
        Instant start = clock.instant();
        return new RequestRecord("req_" + System.nanoTime(), start, servedBy != null, servedBy != null ? 200 : 502,
                null, "demo", "demo", servedBy, List.of(attempts), List.of(), stream, servedBy != null, firstToken,
                latency, null, false, cost == 0 ? null : new Cost(BigDecimal.valueOf(cost), "USD", "list"), caller,
                RequestRecord.REQUEST);
    }
}
