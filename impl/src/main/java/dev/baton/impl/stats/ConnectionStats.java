package dev.baton.impl.stats;

import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Recent counts per connection over a sliding window (15 one-minute buckets by default), derived
 * only from saved {@link RequestRecord}s: how many requests attempted the connection, how its
 * attempts failed by {@link FailureKind}, and how many of those requests were served by another
 * target after an attempt on it failed (its fallbacks). The health state machine says whether a
 * connection is in rotation now; these counts say how it has been doing, which is what an operator
 * needs before ejecting or restoring it by hand.
 *
 * <p>Memory is fixed per connection (one array of buckets). Thread-safe: each connection's buckets
 * take their own lock briefly.
 */
public final class ConnectionStats implements EngineObserver {

    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);
    public static final Duration DEFAULT_BUCKET = Duration.ofMinutes(1);

    private final InstantSource clock;
    private final Duration window;
    private final long bucketMillis;
    private final int bucketCount;
    private final ConcurrentMap<String, Buckets> byConnection = new ConcurrentHashMap<>();

    public ConnectionStats(InstantSource clock) {
        this(clock, DEFAULT_WINDOW, DEFAULT_BUCKET);
    }

    /** @throws IllegalArgumentException unless {@code window} is a positive whole number of {@code bucket}s */
    public ConnectionStats(InstantSource clock, Duration window, Duration bucket) {
        if (bucket.toMillis() <= 0 || window.toMillis() < bucket.toMillis() || window.toMillis() % bucket.toMillis() != 0) {
            throw new IllegalArgumentException("the window (" + window + ") must be a positive whole number of buckets ("
                    + bucket + ")");
        }
        this.clock = clock;
        this.window = window;
        this.bucketMillis = bucket.toMillis();
        this.bucketCount = Math.toIntExact(window.toMillis() / bucket.toMillis());
    }

    @Override
    public void finished(RequestRecord record, Object admission) {
        if (record.attempts().isEmpty()) {
            return; // nothing was attempted: no connection was involved
        }
        long slot = clock.millis() / bucketMillis;
        Map<String, Tally> tallies = new HashMap<>();
        ServedBy served = record.servedBy();
        for (AttemptRecord a : record.attempts()) {
            Tally t = tallies.computeIfAbsent(a.connection(), c -> new Tally());
            if (a.kind() != null) {
                t.failures[a.kind().ordinal()]++;
                if (served != null && !(served.connection().equals(a.connection()) && served.model().equals(a.model()))) {
                    t.fellBack = true;
                }
            }
        }
        tallies.forEach((connection, tally) ->
                byConnection.computeIfAbsent(connection, c -> new Buckets(bucketCount)).add(slot, tally));
    }

    /** The counts of {@code connection} over the window ending now; all zero for a connection never attempted. */
    public Window window(String connection) {
        Buckets buckets = byConnection.get(connection);
        return buckets == null ? new Window(window, 0, 0, counts(new long[FailureKind.values().length]))
                : buckets.sum(clock.millis() / bucketMillis, window);
    }

    /**
     * One connection's counts over the window.
     *
     * @param length    the window's length
     * @param requests  requests that attempted the connection at least once
     * @param fallbacks of those, requests where an attempt on it failed and another target then served
     * @param failures  failed attempts on it by kind, every kind present (0 when none), in the enum's order
     */
    public record Window(Duration length, long requests, long fallbacks, Map<FailureKind, Long> failures) {

        public Window {
            failures = Collections.unmodifiableMap(new EnumMap<>(failures));
        }

        /** {@code fallbacks / requests}, or 0 when nothing attempted the connection. */
        public double fallbackRate() {
            return requests == 0 ? 0 : (double) fallbacks / requests;
        }
    }

    private static Map<FailureKind, Long> counts(long[] byKind) {
        Map<FailureKind, Long> map = new EnumMap<>(FailureKind.class);
        for (FailureKind kind : FailureKind.values()) {
            map.put(kind, byKind[kind.ordinal()]);
        }
        return map;
    }

    /** What one request did to one connection. */
    private static final class Tally {
        final long[] failures = new long[FailureKind.values().length];
        boolean fellBack;
    }

    /** A ring of buckets; a bucket is reused once its slot has left the window. */
    private static final class Buckets {
        private final long[] slots;
        private final long[] requests;
        private final long[] fallbacks;
        private final long[][] failures;

        Buckets(int count) {
            slots = new long[count];
            Arrays.fill(slots, Long.MIN_VALUE);
            requests = new long[count];
            fallbacks = new long[count];
            failures = new long[count][FailureKind.values().length];
        }

        synchronized void add(long slot, Tally tally) {
            int i = Math.floorMod(slot, slots.length);
            if (slots[i] != slot) {
                slots[i] = slot;
                requests[i] = 0;
                fallbacks[i] = 0;
                Arrays.fill(failures[i], 0);
            }
            requests[i]++;
            if (tally.fellBack) {
                fallbacks[i]++;
            }
            for (int k = 0; k < tally.failures.length; k++) {
                failures[i][k] += tally.failures[k];
            }
        }

        synchronized Window sum(long nowSlot, Duration length) {
            long r = 0;
            long f = 0;
            long[] byKind = new long[FailureKind.values().length];
            for (int i = 0; i < slots.length; i++) {
                if (slots[i] <= nowSlot && slots[i] > nowSlot - slots.length) {
                    r += requests[i];
                    f += fallbacks[i];
                    for (int k = 0; k < byKind.length; k++) {
                        byKind[k] += failures[i][k];
                    }
                }
            }
            return new Window(length, r, f, counts(byKind));
        }
    }
}
