package dev.baton.impl.engine;

import dev.baton.impl.config.BatonConfig.RetryBudgetConfig;

import java.time.InstantSource;

/**
 * A process-wide cap on same-target retries, in the manner of Finagle's RetryBudget and the SRE
 * book's per-client budget: within a sliding window, retries may not exceed a percentage of
 * requests plus a small floor per second, so a wide outage cannot turn into a retry storm.
 *
 * <p>The window is kept as one-second buckets. Thread-safe.
 */
public final class RetryBudget {

    private final InstantSource clock;
    private final int percent;
    private final int floor;
    private final long[] requests;
    private final long[] retries;
    private final long[] bucketSecond;

    public RetryBudget(RetryBudgetConfig config, InstantSource clock) {
        this.clock = clock;
        this.percent = config.percent();
        int seconds = (int) Math.max(1, config.window().toSeconds());
        this.floor = config.minPerSecond() * seconds;
        this.requests = new long[seconds];
        this.retries = new long[seconds];
        this.bucketSecond = new long[seconds];
    }

    /** Counts a request that arrived; each one earns a fraction of a retry. */
    public synchronized void deposit() {
        requests[bucket()]++;
    }

    /** Takes one retry from the budget; {@code false} when the budget is spent. */
    public synchronized boolean tryWithdraw() {
        long now = currentSecond();
        long totalRequests = 0;
        long totalRetries = 0;
        for (int i = 0; i < requests.length; i++) {
            if (now - bucketSecond[i] < requests.length) {
                totalRequests += requests[i];
                totalRetries += retries[i];
            }
        }
        if (totalRetries * 100 >= totalRequests * percent + floor * 100L) {
            return false;
        }
        retries[bucket()]++;
        return true;
    }

    private int bucket() {
        long second = currentSecond();
        int index = (int) Math.floorMod(second, (long) requests.length);
        if (bucketSecond[index] != second) {
            bucketSecond[index] = second;
            requests[index] = 0;
            retries[index] = 0;
        }
        return index;
    }

    private long currentSecond() {
        return Math.floorDiv(clock.millis(), 1000L);
    }
}
