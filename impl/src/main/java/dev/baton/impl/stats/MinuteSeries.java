package dev.baton.impl.stats;

import dev.baton.impl.engine.EngineObserver;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What the operator console charts: per-minute aggregates of the last hour per route (or model named directly) and
 * per target, and today's spend per route, model and key, all derived from saved {@link RequestRecord}s. Memory is
 * fixed per route and target (a ring of minutes); nothing is kept across a restart, so after one the console shows
 * what has happened since. Registered only when the console is on. Thread-safe: each ring takes its own lock briefly.
 */
public final class MinuteSeries implements EngineObserver {

    /** The minutes kept. */
    public static final int MINUTES = 60;

    /** Upper bounds (ms) of the latency buckets; the last bucket is everything above. A percentile is its bucket's bound. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 60_000};

    private final InstantSource clock;
    private final Instant since;
    private final ConcurrentMap<String, Ring> routes = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Ring> targets = new ConcurrentHashMap<>();
    private final Spend spend = new Spend();

    public MinuteSeries(InstantSource clock) {
        this.clock = clock;
        this.since = clock.instant();
    }

    @Override
    public void finished(RequestRecord record, Object admission) {
        long minute = record.startedAt().getEpochSecond() / 60;
        String route = record.routeName() != null ? record.routeName() : String.valueOf(record.modelRequested());
        boolean fellBack = record.ok() && record.servedBy() != null && !"primary".equals(record.servedBy().position());
        Long firstToken = record.firstTokenMillis();
        double cost = record.cost() == null ? 0 : record.cost().amount().doubleValue();
        routes.computeIfAbsent(route, r -> new Ring()).addRequest(minute, record.ok(), fellBack,
                record.latencyMillis(), record.stream() ? firstToken : null, cost);
        for (AttemptRecord a : record.attempts()) {
            boolean served = record.servedBy() != null && a.kind() == null && !a.abandoned()
                    && a.connection().equals(record.servedBy().connection()) && a.model().equals(record.servedBy().model());
            targets.computeIfAbsent(route + "\n" + a.target(), t -> new Ring())
                    .addAttempt(minute, a.kind() != null, served, a.latencyMillis());
        }
        spend.add(LocalDate.ofInstant(record.startedAt(), ZoneOffset.UTC), route,
                record.servedBy() != null ? record.servedBy().model() : String.valueOf(record.modelRequested()),
                record.caller(), record.cost() == null ? BigDecimal.ZERO : record.cost().amount());
    }

    /** When these aggregates began: the application's start, or the console's. */
    public Instant since() {
        return since;
    }

    /** Every route's last {@code minutes} minutes, with its targets', oldest minute first; minutes without requests left out. */
    public List<RouteSeries> routes(int minutes) {
        long last = clock.instant().getEpochSecond() / 60;
        long first = last - Math.min(minutes, MINUTES) + 1;
        Map<String, RouteSeries> out = new TreeMap<>();
        routes.forEach((route, ring) -> out.put(route, new RouteSeries(route, ring.minutes(first, last), new ArrayList<>())));
        targets.forEach((key, ring) -> {
            int split = key.indexOf('\n');
            RouteSeries r = out.get(key.substring(0, split));
            List<Minute> series = ring.minutes(first, last);
            if (r != null && !series.isEmpty()) {
                r.targets().add(new TargetSeries(key.substring(split + 1), series));
            }
        });
        out.values().forEach(r -> r.targets().sort(Comparator.comparing(TargetSeries::target)));
        return out.values().stream().filter(r -> !r.series().isEmpty() || !r.targets().isEmpty()).toList();
    }

    /** Today's spend (UTC): per route, per model that served, and per key ({@code null}: callers without a named key). */
    public Spend.Day today() {
        return spend.day(LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));
    }

    /** One route's minutes and its targets'. */
    public record RouteSeries(String route, List<Minute> series, List<TargetSeries> targets) {
    }

    /** One target's minutes within a route ({@code connection/model}). */
    public record TargetSeries(String target, List<Minute> series) {
    }

    /**
     * One minute of a route (requests, errors, fallbacks, cost, latency, time to first token of streams) or of a
     * target (attempts, failures, served, latency of its attempts). Percentiles are bucket bounds in ms, {@code null}
     * without samples; {@code Long.MAX_VALUE} above the last bound.
     */
    public record Minute(Instant start, long requests, long errors, long fallbacks, double cost, Long latencyP50,
                         Long latencyP95, Long firstTokenP50, Long firstTokenP95, long attempts, long failures,
                         long served) {
    }

    /** A ring of {@link #MINUTES} minutes: slot {@code minute % MINUTES}, reset when a new minute reaches it. */
    private static final class Ring {
        private final long[] minuteOf = new long[MINUTES];
        private final long[][] counts = new long[MINUTES][6]; // requests, errors, fallbacks, attempts, failures, served
        private final double[] cost = new double[MINUTES];
        private final int[][] latency = new int[MINUTES][BOUNDS_MS.length + 1];
        private final int[][] firstToken = new int[MINUTES][BOUNDS_MS.length + 1];

        Ring() {
            java.util.Arrays.fill(minuteOf, -1);
        }

        synchronized void addRequest(long minute, boolean ok, boolean fellBack, long latencyMillis, Long firstTokenMillis,
                                     double amount) {
            int i = slot(minute);
            if (i < 0) {
                return;
            }
            counts[i][0]++;
            counts[i][1] += ok ? 0 : 1;
            counts[i][2] += fellBack ? 1 : 0;
            cost[i] += amount;
            latency[i][bucket(latencyMillis)]++;
            if (firstTokenMillis != null) {
                firstToken[i][bucket(firstTokenMillis)]++;
            }
        }

        synchronized void addAttempt(long minute, boolean failed, boolean served, long latencyMillis) {
            int i = slot(minute);
            if (i < 0) {
                return;
            }
            counts[i][3]++;
            counts[i][4] += failed ? 1 : 0;
            counts[i][5] += served ? 1 : 0;
            latency[i][bucket(latencyMillis)]++;
        }

        /** The slot of {@code minute}, cleared if it held an older minute; -1 for a minute older than the slot's. */
        private int slot(long minute) {
            int i = (int) Math.floorMod(minute, (long) MINUTES);
            if (minuteOf[i] != minute) {
                if (minuteOf[i] > minute) {
                    return -1; // a record of a request that started an hour ago: past the window
                }
                minuteOf[i] = minute;
                java.util.Arrays.fill(counts[i], 0);
                cost[i] = 0;
                java.util.Arrays.fill(latency[i], 0);
                java.util.Arrays.fill(firstToken[i], 0);
            }
            return i;
        }

        synchronized List<Minute> minutes(long first, long last) {
            List<Minute> out = new ArrayList<>();
            for (long m = first; m <= last; m++) {
                int i = (int) Math.floorMod(m, (long) MINUTES);
                if (minuteOf[i] == m) {
                    long[] c = counts[i];
                    out.add(new Minute(Instant.ofEpochSecond(m * 60), c[0], c[1], c[2], cost[i],
                            percentile(latency[i], 0.50), percentile(latency[i], 0.95),
                            percentile(firstToken[i], 0.50), percentile(firstToken[i], 0.95), c[3], c[4], c[5]));
                }
            }
            return out;
        }
    }

    static int bucket(long millis) {
        for (int i = 0; i < BOUNDS_MS.length; i++) {
            if (millis <= BOUNDS_MS[i]) {
                return i;
            }
        }
        return BOUNDS_MS.length;
    }

    /** The bound of the bucket where the {@code q} quantile falls, or {@code null} without samples. */
    static Long percentile(int[] buckets, double q) {
        long total = 0;
        for (int n : buckets) {
            total += n;
        }
        if (total == 0) {
            return null;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += buckets[i];
            if (seen >= rank) {
                return i < BOUNDS_MS.length ? BOUNDS_MS[i] : Long.MAX_VALUE;
            }
        }
        return Long.MAX_VALUE;
    }

    /** Today's spend; yesterday's is dropped when the first record of a new day arrives. */
    public static final class Spend {
        private LocalDate day;
        private final Map<String, Total> byRoute = new TreeMap<>();
        private final Map<String, Total> byModel = new TreeMap<>();
        private final Map<String, Total> byKey = new TreeMap<>(Comparator.nullsLast(Comparator.naturalOrder()));

        synchronized void add(LocalDate on, String route, String model, String key, BigDecimal amount) {
            if (day == null || on.isAfter(day)) {
                day = on;
                byRoute.clear();
                byModel.clear();
                byKey.clear();
            } else if (on.isBefore(day)) {
                return;
            }
            byRoute.computeIfAbsent(route, k -> new Total()).add(amount);
            byModel.computeIfAbsent(model, k -> new Total()).add(amount);
            byKey.computeIfAbsent(key, k -> new Total()).add(amount);
        }

        synchronized Day day(LocalDate today) {
            if (!today.equals(day)) {
                return new Day(today, Map.of(), Map.of(), Map.of());
            }
            return new Day(today, copy(byRoute), copy(byModel), copy(byKey));
        }

        private static Map<String, Total> copy(Map<String, Total> totals) {
            Map<String, Total> out = new TreeMap<>(Comparator.nullsLast(Comparator.naturalOrder()));
            totals.forEach((k, v) -> out.put(k, new Total(v.cost, v.requests)));
            return out;
        }

        /** One day's totals by route, model and key. */
        public record Day(LocalDate day, Map<String, Total> byRoute, Map<String, Total> byModel,
                          Map<String, Total> byKey) {
        }
    }

    /** A cost and the requests it came from. */
    public static final class Total {
        private BigDecimal cost = BigDecimal.ZERO;
        private long requests;

        Total() {
        }

        Total(BigDecimal cost, long requests) {
            this.cost = cost;
            this.requests = requests;
        }

        void add(BigDecimal amount) {
            cost = cost.add(amount);
            requests++;
        }

        public BigDecimal cost() {
            return cost;
        }

        public long requests() {
            return requests;
        }
    }
}
