package dev.baton.impl.balance;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One target's attempts in flight and its recent outcomes, in buckets of one recompute interval
 * over the window, on the engine's ticker. Outcomes are kept only once a balanced pool has ordered the
 * target ({@link #keepOutcomes}): a target only ever tried in priority order pays for its in-flight count
 * alone. Thread-safe: the counter is atomic, the buckets are guarded by this object (a few additions per
 * attempt).
 */
final class TargetLoad {

    /** Fewer attempts than this in the window say nothing about an error rate. */
    static final int MIN_ATTEMPTS = 10;
    /** Fewer successes than this say nothing about a latency. */
    static final int MIN_SUCCESSES = 5;

    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean keepsOutcomes;
    private final long bucketNanos;
    private final long[] epoch;
    private final int[] attempts;
    private final int[] faults;
    private final int[] successes;
    private final long[] latencyNanos;

    TargetLoad(long bucketNanos, int buckets) {
        this.bucketNanos = bucketNanos;
        this.epoch = new long[buckets];
        this.attempts = new int[buckets];
        this.faults = new int[buckets];
        this.successes = new int[buckets];
        this.latencyNanos = new long[buckets];
        java.util.Arrays.fill(epoch, Long.MIN_VALUE);
    }

    void started() {
        inFlight.incrementAndGet();
    }

    /** From now on, outcomes count: a balanced pool reads them. */
    void keepOutcomes() {
        if (!keepsOutcomes) {
            keepsOutcomes = true;
        }
    }

    /** Ends an attempt; {@code latency} is {@code null} for one that did not serve. */
    void ended(long now, boolean fault, Long latency) {
        inFlight.decrementAndGet();
        if (keepsOutcomes) {
            count(now, fault, latency);
        }
    }

    private synchronized void count(long now, boolean fault, Long latency) {
        int b = bucket(now);
        attempts[b]++;
        if (fault) {
            faults[b]++;
        }
        if (latency != null) {
            successes[b]++;
            latencyNanos[b] += latency;
        }
    }

    /** An attempt whose caller went away: it says nothing about the target. */
    void abandoned() {
        inFlight.decrementAndGet();
    }

    int inFlight() {
        return Math.max(0, inFlight.get());
    }

    /** What the window says: counts, and the mean latency of successes ({@code -1} when too few). */
    synchronized Window window(long now) {
        long current = Math.floorDiv(now, bucketNanos);
        int a = 0;
        int f = 0;
        int s = 0;
        long l = 0;
        for (int i = 0; i < epoch.length; i++) {
            if (epoch[i] > current - epoch.length) {
                a += attempts[i];
                f += faults[i];
                s += successes[i];
                l += latencyNanos[i];
            }
        }
        return new Window(a, f, s < MIN_SUCCESSES ? -1 : l / s);
    }

    private int bucket(long now) {
        long e = Math.floorDiv(now, bucketNanos);
        int b = (int) Math.floorMod(e, (long) epoch.length);
        if (epoch[b] != e) {
            epoch[b] = e;
            attempts[b] = 0;
            faults[b] = 0;
            successes[b] = 0;
            latencyNanos[b] = 0;
        }
        return b;
    }

    /**
     * @param attempts    attempts ended in the window (abandoned ones not counted)
     * @param faults      those that failed for a reason that counts toward ejection
     * @param meanLatency the mean latency of the successes in nanoseconds, {@code -1} when too few
     */
    record Window(int attempts, int faults, long meanLatency) {

        /** The fault rate, or {@code -1} when too few attempts say nothing. */
        double errorRate() {
            return attempts < MIN_ATTEMPTS ? -1 : (double) faults / attempts;
        }
    }
}
