package dev.baton.impl.config;

import java.time.Duration;

/**
 * When a connection is taken out of rotation and for how long.
 *
 * @param ejectAfter           consecutive counted failures that eject (default 5)
 * @param ejectAfterCredential consecutive credential failures that eject (default 1: a rejected key stays rejected)
 * @param coolOff              the first ejection's length (default 30 s); doubles on each failed probe
 * @param maxCoolOff           the longest ejection (default 15 min)
 */
public record HealthPolicy(int ejectAfter, int ejectAfterCredential, Duration coolOff, Duration maxCoolOff) {

    public static final HealthPolicy DEFAULT = new HealthPolicy(5, 1, Duration.ofSeconds(30), Duration.ofMinutes(15));
}
