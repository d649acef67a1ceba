package dev.baton.impl.config;

import java.time.Duration;
import java.util.Locale;

/**
 * When a connection is taken out of rotation, and how it comes back.
 *
 * @param ejectAfter           consecutive counted failures that eject (default 5)
 * @param ejectAfterCredential consecutive credential failures that eject (default 1: a rejected key stays rejected)
 * @param coolOff              in {@link Probe#REQUEST} mode, the first ejection's length (default 30 s); doubles on
 *                             each failed probe
 * @param maxCoolOff           in {@link Probe#REQUEST} mode, the longest ejection (default 15 min)
 * @param probe                who probes an ejected connection (default {@link Probe#BACKGROUND})
 * @param probeInterval        in {@link Probe#BACKGROUND} mode, the wait before the first probe (default 5 s); doubles
 *                             after each failed probe
 * @param maxProbeInterval     in {@link Probe#BACKGROUND} mode, the longest wait between probes (default 30 s)
 */
public record HealthPolicy(int ejectAfter, int ejectAfterCredential, Duration coolOff, Duration maxCoolOff,
                           Probe probe, Duration probeInterval, Duration maxProbeInterval) {

    /** Who finds out that an ejected connection is back. */
    public enum Probe {
        /** Baton sends a minimal request of its own on a backing-off schedule; no user request is ever the probe. */
        BACKGROUND,
        /** After the cool-off, the next user request that plans the connection is let through as the probe (half-open). */
        REQUEST;

        /** The configuration value: {@code background} or {@code request}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final HealthPolicy DEFAULT = new HealthPolicy(5, 1, Duration.ofSeconds(30), Duration.ofMinutes(15),
            Probe.BACKGROUND, Duration.ofSeconds(5), Duration.ofSeconds(30));

    /** A policy with the default probing: background probes every 5 s, backing off to 30 s. */
    public HealthPolicy(int ejectAfter, int ejectAfterCredential, Duration coolOff, Duration maxCoolOff) {
        this(ejectAfter, ejectAfterCredential, coolOff, maxCoolOff, DEFAULT.probe(), DEFAULT.probeInterval(),
                DEFAULT.maxProbeInterval());
    }

    /** This policy with {@code probe} mode. */
    public HealthPolicy withProbe(Probe probe) {
        return new HealthPolicy(ejectAfter, ejectAfterCredential, coolOff, maxCoolOff, probe, probeInterval,
                maxProbeInterval);
    }
}
