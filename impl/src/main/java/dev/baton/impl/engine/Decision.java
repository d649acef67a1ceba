package dev.baton.impl.engine;

import dev.baton.FailureAction;
import dev.baton.FailureKind;
import dev.baton.impl.health.ConnectionHealth;

import java.time.Duration;

/**
 * What to do after a failed attempt: the decide stage, as a pure function of the failure, whether
 * it came after the commit point, the route's action for its kind and the time left. The retry budget is consulted by the caller
 * only when the decision is to retry.
 */
record Decision(Step step, Duration delay) {

    enum Step { RETRY_SAME, NEXT, STOP }

    /** Shortest time worth starting an attempt with; no wait is taken that leaves less. */
    static final Duration MIN_ATTEMPT = Duration.ofMillis(100);

    static final Decision NEXT = new Decision(Step.NEXT, Duration.ZERO);
    static final Decision STOP = new Decision(Step.STOP, Duration.ZERO);

    /**
     * @param committed     whether output of the failed attempt had already reached the caller
     * @param retriesDone   same-target retries already spent on this target
     * @param maxRetries    the route's same-target retries
     * @param retryAfter    the provider's Retry-After, or {@code null}
     * @param jitter        the full-jitter backoff drawn for this retry
     * @param maxWait       the longest wait for a provider's Retry-After before asking the same target again
     * @param remaining     time left before the deadline
     * @param sameModelLeft whether another target of the same model remains in the plan
     */
    static Decision afterFailure(boolean committed, FailureKind kind, FailureAction action, int retriesDone, int maxRetries,
                                 Duration retryAfter, Duration jitter, Duration maxWait, Duration remaining,
                                 boolean sameModelLeft) {
        // Nothing moves after the commit point: the caller already has part of one target's answer.
        if (committed) {
            return STOP;
        }
        if (action == FailureAction.STOP) {
            return STOP;
        }
        boolean retriesLeft = retriesDone < maxRetries;
        return switch (kind) {
            // A busy account is asked again only when no other account serves the model and its wait is short:
            // a short same-model wait beats a downgrade, a long one is never taken.
            case RATE_LIMIT -> !sameModelLeft && retriesLeft
                    ? retryIfFits(retryAfter == null ? ConnectionHealth.DEFAULT_PARK : retryAfter, maxWait, remaining)
                    : NEXT;
            // Transient failures: the route's same-target retries, waiting what the provider asked (if short) or a
            // jittered backoff (capped by retry-backoff-max, not by max-wait).
            case CONNECTION, SERVER_ERROR -> action == FailureAction.RETRY && retriesLeft
                    ? retryAfter == null ? retryIfFits(jitter, jitter, remaining) : retryIfFits(retryAfter, maxWait, remaining)
                    : NEXT;
            // Never asked twice: a silent target, an empty account, a bad key, a refusal, a model it lacks.
            case TIMEOUT, SPEND_LIMIT, CREDENTIAL, MODERATION, INVALID_REQUEST, MODEL_NOT_SERVED -> NEXT;
        };
    }

    /** A wait longer than {@code longest}, or one that leaves no time for the attempt, is never taken. */
    private static Decision retryIfFits(Duration delay, Duration longest, Duration remaining) {
        return delay.compareTo(longest) <= 0 && delay.plus(MIN_ATTEMPT).compareTo(remaining) <= 0
                ? new Decision(Step.RETRY_SAME, delay) : NEXT;
    }
}
