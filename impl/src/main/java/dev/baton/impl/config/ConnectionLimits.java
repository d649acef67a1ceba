package dev.baton.impl.config;

import java.time.Duration;

/**
 * Local limits on one connection, enforced before a request leaves (by SmallRye Fault Tolerance
 * guards, see {@code dev.baton.impl.limits.ConnectionGuards}). A target over a limit is skipped for
 * the request, without touching its health: the provider did nothing wrong.
 *
 * @param maxConcurrent the most requests in flight at once, streams until they end; 0 for no limit
 * @param ratePermits   how many requests may start per {@code rateWindow}, spread evenly; 0 for no limit
 * @param rateWindow    the rate limit's window, or {@code null} without a rate limit
 */
public record ConnectionLimits(int maxConcurrent, int ratePermits, Duration rateWindow) {

    public static final ConnectionLimits NONE = new ConnectionLimits(0, 0, null);

    public boolean any() {
        return maxConcurrent > 0 || ratePermits > 0;
    }
}
