package dev.baton.impl.engine;

import dev.baton.FailureKind;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.exception.UpstreamRefusedException;
import dev.baton.exception.UpstreamUnavailableException;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Chooses the one most useful error when no target served: the answer stage for failures. The
 * precedence is {@code docs/design.md}'s, rule by rule. Pure.
 *
 * @param status     the HTTP status
 * @param type       the OpenAI-style error type
 * @param code       the error code
 * @param retryAfter when to come back, or {@code null}
 * @param retryable  whether a later retry can help
 * @param headline   the first sentence of the message
 */
record FinalError(int status, String type, String code, Duration retryAfter, boolean retryable, String headline) {

    /**
     * A target the plan did not attempt, with when it recovers ({@code null} if not waiting on a
     * recovery). {@code permanent} marks a skip no later retry can change: the model cannot serve
     * the request as configured.
     */
    record Skip(String target, String position, String reason, Instant until, boolean parked, boolean permanent) {
        Skip(String target, String position, String reason, Instant until, boolean parked) {
            this(target, position, reason, until, parked, false);
        }
    }

    /** The shortest Retry-After Baton sends: an SDK that obeys it does not come straight back through the chain. */
    static final Duration MIN_RETRY_AFTER = Duration.ofSeconds(1);

    /**
     * @param usableAgain the first moment a target able to serve the request could be tried again,
     *                    or {@code null} when none could; the Retry-After of a retryable error is no earlier
     */
    static FinalError choose(List<AttemptRecord> attempts, List<Skip> skipped, FailureKind stoppedBy, Instant now,
                             Instant usableAgain) {
        List<AttemptRecord> failed = attempts.stream().filter(a -> !a.succeeded()).toList();
        Duration comeBack = usableAgain == null ? MIN_RETRY_AFTER : atLeastMin(Duration.between(now, usableAgain));
        // 1. A provider's moderation refusal is returned as such.
        AttemptRecord moderation = last(failed, FailureKind.MODERATION);
        if (moderation != null) {
            return new FinalError(403, "invalid_request_error", "content_policy_violation", null, false,
                    "The provider refused the request on content policy grounds.");
        }
        // 2. Every target rejected the request as invalid: 400 with the provider's own message.
        if (!failed.isEmpty() && failed.stream().allMatch(a -> a.kind() == FailureKind.INVALID_REQUEST)) {
            AttemptRecord lastInvalid = failed.get(failed.size() - 1);
            return new FinalError(400, "invalid_request_error",
                    Objects.requireNonNullElse(lastInvalid.errorCode(), "invalid_request"), null, false,
                    "Every provider tried rejected the request as invalid.");
        }
        // 3. A spend limit whose action is stop, or one on every account tried: no Retry-After, waiting
        //    does not restore access.
        if (stoppedBy == FailureKind.SPEND_LIMIT
                || !failed.isEmpty() && failed.stream().allMatch(a -> a.kind() == FailureKind.SPEND_LIMIT)) {
            return new FinalError(429, "insufficient_quota", "provider_spend_limit", null, false,
                    "The provider account has reached its spend limit.");
        }
        // 4. Any rate limit in the chain (attempted or parked): 429 with the earliest Retry-After.
        boolean rateLimited = failed.stream().anyMatch(a -> a.kind() == FailureKind.RATE_LIMIT)
                || skipped.stream().anyMatch(Skip::parked);
        if (rateLimited) {
            Duration earliest = earliest(
                    failed.stream().filter(a -> a.kind() == FailureKind.RATE_LIMIT).map(AttemptRecord::retryAfter).toList(),
                    skipped.stream().filter(Skip::parked).map(Skip::until).toList(), now);
            return new FinalError(429, "rate_limit_error", "provider_rate_limited",
                    earliest == null ? ConnectionHealth.DEFAULT_PARK : atLeastMin(earliest), true,
                    "The providers tried are rate limiting this request.");
        }
        // 5. Every attempt timed out.
        if (!failed.isEmpty() && failed.stream().allMatch(a -> a.kind() == FailureKind.TIMEOUT)) {
            return new FinalError(408, "timeout_error", "request_timeout", comeBack, true, "Every attempt timed out.");
        }
        // 6. Every target said it cannot serve the model.
        if (!failed.isEmpty() && failed.stream().allMatch(a -> a.kind() == FailureKind.MODEL_NOT_SERVED)) {
            return new FinalError(503, "service_unavailable_error", "model_not_served", null, false,
                    "No connection tried can serve the model; give the keys access or configure another connection.");
        }
        // 7. Nothing was eligible: come back when the first target recovers; when every target was
        //    ruled out by what its model can do, coming back cannot help.
        if (failed.isEmpty()) {
            boolean retryable = skipped.isEmpty() || skipped.stream().anyMatch(s -> !s.permanent());
            return new FinalError(503, "service_unavailable_error", "no_available_provider",
                    retryable ? comeBack : null, retryable,
                    retryable ? "No target was available to try." : "No configured target can serve this request.");
        }
        // 8. Everything else.
        return new FinalError(502, "server_error", "upstream_error", comeBack, true, "No target could serve the request.");
    }

    /**
     * The message: the headline, then every target tried and why it failed, then every target skipped. It goes to
     * the caller, so each provider message has the account's identifiers masked ({@link Redactor#maskAccounts});
     * the record keeps them.
     */
    String message(List<AttemptRecord> attempts, List<Skip> skipped) {
        StringBuilder out = new StringBuilder(headline);
        StringJoiner tried = new StringJoiner("; ", " Tried: ", ".").setEmptyValue("");
        for (AttemptRecord a : attempts) {
            if (!a.succeeded()) {
                tried.add(a.target() + " (" + a.position() + (a.retry() > 0 ? ", retry " + a.retry() : "") + "): "
                        + a.kind().wireName() + ", " + Redactor.maskAccounts(a.message()));
            }
        }
        StringJoiner notTried = new StringJoiner("; ", " Skipped: ", ".").setEmptyValue("");
        for (Skip s : skipped) {
            notTried.add(s.target() + " (" + s.position() + "): " + s.reason());
        }
        return out.append(tried).append(notTried).toString();
    }

    /**
     * Whether a degraded answer may stand in for this error: not for a moderation refusal or a
     * request every provider rejected, which a healthy day would answer the same way.
     */
    boolean degradable() {
        return status != 400 && status != 403;
    }

    /** An {@link UpstreamUnavailableException} when a later retry may help, else an {@link UpstreamRefusedException}. */
    UpstreamFailedException toException(String message, RequestRecord record) {
        return retryable
                ? new UpstreamUnavailableException(message, status, type, code, null, retryAfter, record)
                : new UpstreamRefusedException(message, status, type, code, null, record);
    }

    private static AttemptRecord last(List<AttemptRecord> failed, FailureKind kind) {
        AttemptRecord found = null;
        for (AttemptRecord a : failed) {
            if (a.kind() == kind) {
                found = a;
            }
        }
        return found;
    }

    private static Duration earliest(List<Duration> waits, List<Instant> untils, Instant now) {
        Duration best = null;
        for (Duration d : waits) {
            if (d != null && (best == null || d.compareTo(best) < 0)) {
                best = d;
            }
        }
        for (Instant until : untils) {
            if (until != null) {
                Duration d = Duration.between(now, until);
                if (best == null || d.compareTo(best) < 0) {
                    best = d;
                }
            }
        }
        return best;
    }

    private static Duration atLeastMin(Duration d) {
        return d.compareTo(MIN_RETRY_AFTER) < 0 ? MIN_RETRY_AFTER : d;
    }
}
