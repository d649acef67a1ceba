package dev.baton.impl.config;

import dev.baton.FailureAction;
import dev.baton.FailureKind;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The values a {@code @FailoverPolicy} (after config overrides) sets; {@code null} or empty keeps
 * the route's. Built and checked when the application deploys.
 *
 * @param fallbacks models tried after every target of the route or requested model
 * @param balance   the balancing strategy, or {@code null} for the route's
 * @param origin    where it was declared, for messages: {@code @FailoverPolicy on com.example.Drafts.write}
 */
public record PolicyOverride(Duration deadline, Duration attemptTimeout, Duration firstTokenTimeout,
                             Duration streamIdleTimeout, Integer sameTargetRetries, Duration retryBackoff,
                             Duration retryBackoffMax, Duration maxWait, Map<FailureKind, FailureAction> actions,
                             List<String> fallbacks, String degraded, Balance balance, String origin) {

    /** Changes nothing. */
    public static final PolicyOverride NONE = new PolicyOverride(null, null, null, null, null, null, null, null, Map.of(),
            List.of(), null, null, "the configured route policy");

    public PolicyOverride {
        actions = Map.copyOf(actions);
        fallbacks = List.copyOf(fallbacks);
    }

    /** An override that leaves the balancing strategy to the route. */
    public PolicyOverride(Duration deadline, Duration attemptTimeout, Duration firstTokenTimeout,
                          Duration streamIdleTimeout, Integer sameTargetRetries, Duration retryBackoff,
                          Duration retryBackoffMax, Duration maxWait, Map<FailureKind, FailureAction> actions,
                          List<String> fallbacks, String degraded, String origin) {
        this(deadline, attemptTimeout, firstTokenTimeout, streamIdleTimeout, sameTargetRetries, retryBackoff,
                retryBackoffMax, maxWait, actions, fallbacks, degraded, null, origin);
    }
}
