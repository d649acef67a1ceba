package dev.baton.impl.config;

import dev.baton.FailureAction;
import dev.baton.FailureKind;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * How a route spends its time and attempts.
 *
 * @param deadline          the whole request, every attempt and wait included (default 60 s)
 * @param attemptTimeout    one attempt, cut to what is left of the deadline (default 30 s)
 * @param firstTokenTimeout a stream's first output event, from the attempt's start (default 10 s)
 * @param streamIdleTimeout the longest silence between stream events (default 30 s)
 * @param sameTargetRetries retries on the same target for kinds whose action is {@code retry}, 0–3 (default 1)
 * @param retryBackoff      the full-jitter base: retry n waits random(0, min(max, base·2ⁿ)) (default 200 ms)
 * @param retryBackoffMax   the full-jitter cap (default 2 s)
 * @param maxWait           the longest wait for a rate-limited target or a provider's Retry-After; a longer
 *                          wait is never taken: the request moves on or answers at once (default 2 s)
 * @param actions           the action for every failure kind
 * @param degraded          the text answered when no target could serve, or {@code null} for none (default)
 * @param balance           how the usable targets of a tier are ordered (default {@link Balance#PRIORITY})
 */
public record RoutePolicy(Duration deadline, Duration attemptTimeout, Duration firstTokenTimeout,
                          Duration streamIdleTimeout, int sameTargetRetries, Duration retryBackoff,
                          Duration retryBackoffMax, Duration maxWait, Map<FailureKind, FailureAction> actions,
                          String degraded, Balance balance) {

    public static final RoutePolicy DEFAULT = new RoutePolicy(Duration.ofSeconds(60), Duration.ofSeconds(30),
            Duration.ofSeconds(10), Duration.ofSeconds(30), 1, Duration.ofMillis(200), Duration.ofSeconds(2),
            Duration.ofSeconds(2), defaultActions(), null, Balance.PRIORITY);

    /** The longest {@code max-wait}: waiting longer holds a caller through someone else's incident. */
    public static final Duration MAX_MAX_WAIT = Duration.ofMinutes(1);

    /** The longest degraded text. */
    public static final int MAX_DEGRADED_LENGTH = 4096;

    /** Kinds whose action may be {@code retry}: only failures a second try on the same target can cure. */
    public static final Set<FailureKind> RETRYABLE_KINDS = Set.of(FailureKind.CONNECTION, FailureKind.SERVER_ERROR,
            FailureKind.RATE_LIMIT);

    public RoutePolicy {
        actions = Map.copyOf(actions);
    }

    /** This policy with every value {@code override} sets replaced. */
    public RoutePolicy with(PolicyOverride override) {
        if (override == PolicyOverride.NONE) {
            return this; // the common case, on every request: no copies
        }
        Map<FailureKind, FailureAction> merged = new EnumMap<>(actions);
        merged.putAll(override.actions());
        return new RoutePolicy(or(override.deadline(), deadline), or(override.attemptTimeout(), attemptTimeout),
                or(override.firstTokenTimeout(), firstTokenTimeout), or(override.streamIdleTimeout(), streamIdleTimeout),
                or(override.sameTargetRetries(), sameTargetRetries), or(override.retryBackoff(), retryBackoff),
                or(override.retryBackoffMax(), retryBackoffMax), or(override.maxWait(), maxWait), merged,
                or(override.degraded(), degraded), or(override.balance(), balance));
    }

    private static <T> T or(T value, T otherwise) {
        return value != null ? value : otherwise;
    }

    public FailureAction action(FailureKind kind) {
        return actions.get(kind);
    }

    /** The failure table of {@code docs/design.md}. */
    public static Map<FailureKind, FailureAction> defaultActions() {
        Map<FailureKind, FailureAction> actions = new EnumMap<>(FailureKind.class);
        actions.put(FailureKind.CONNECTION, FailureAction.RETRY);
        actions.put(FailureKind.TIMEOUT, FailureAction.FAILOVER);
        actions.put(FailureKind.RATE_LIMIT, FailureAction.FAILOVER);
        actions.put(FailureKind.SPEND_LIMIT, FailureAction.FAILOVER);
        actions.put(FailureKind.SERVER_ERROR, FailureAction.RETRY);
        actions.put(FailureKind.CREDENTIAL, FailureAction.FAILOVER);
        actions.put(FailureKind.MODERATION, FailureAction.STOP);
        actions.put(FailureKind.INVALID_REQUEST, FailureAction.FAILOVER);
        actions.put(FailureKind.MODEL_NOT_SERVED, FailureAction.FAILOVER);
        return actions;
    }
}
