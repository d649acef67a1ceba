package dev.baton.impl.cluster;

import java.util.Arrays;

/**
 * How long other nodes' changes took to reach this node (their time of change to the time it was
 * adopted here), over the last {@link #WINDOW} changes. Thread-safe.
 */
public final class Staleness {

    static final int WINDOW = 1000;
    private final long[] lags = new long[WINDOW];
    private long count;
    private long max;

    synchronized void add(long lagMillis) {
        lags[(int) (count % WINDOW)] = lagMillis;
        count++;
        max = Math.max(max, lagMillis);
    }

    /**
     * @param learned how many changes were learned since start
     * @param p50     the median lag over the window, in ms
     * @param p99     the 99th percentile over the window, in ms
     * @param max     the longest lag since start, in ms
     */
    public record Figures(long learned, long p50, long p99, long max) {
    }

    public synchronized Figures snapshot() {
        int n = (int) Math.min(count, WINDOW);
        if (n == 0) {
            return new Figures(0, 0, 0, 0);
        }
        long[] sorted = Arrays.copyOf(lags, n);
        Arrays.sort(sorted);
        return new Figures(count, sorted[(n - 1) / 2], sorted[(int) Math.ceil(n * 0.99) - 1], max);
    }
}
