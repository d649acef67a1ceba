package dev.baton.impl.engine;

import dev.baton.FailureKind;
import dev.baton.record.AttemptRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per rule of DESIGN.md's final-error precedence, in that order. */
class FinalErrorTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");

    @Test
    void moderationWinsOverEverythingElseWith403() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.RATE_LIMIT, 429, null, Duration.ofSeconds(2)),
                attempt("b/m", FailureKind.INVALID_REQUEST, 400, "context_length_exceeded", null),
                attempt("c/m", FailureKind.MODERATION, 400, "content_policy_violation", null)),
                List.of(), FailureKind.SPEND_LIMIT, NOW, NOW);
        assertEquals(403, e.status());
        assertEquals("content_policy_violation", e.code());
        assertFalse(e.retryable());
        assertNull(e.retryAfter());
    }

    @Test
    void everyTargetInvalidGives400WithTheProvidersCode() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.INVALID_REQUEST, 400, "invalid_value", null),
                attempt("b/m", FailureKind.INVALID_REQUEST, 400, "context_length_exceeded", null)),
                List.of(), null, NOW, NOW);
        assertEquals(400, e.status());
        assertEquals("invalid_request_error", e.type());
        assertEquals("context_length_exceeded", e.code());
        assertFalse(e.retryable());
    }

    @Test
    void invalidOnOnlySomeTargetsIsNotA400() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.SERVER_ERROR, 500, null, null),
                attempt("b/m", FailureKind.INVALID_REQUEST, 400, "context_length_exceeded", null)),
                List.of(), null, NOW, NOW);
        assertEquals(502, e.status());
    }

    @Test
    void aSpendLimitStopGives429ProviderSpendLimitWithoutRetryAfterEvenAfterARateLimit() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.RATE_LIMIT, 429, "rate_limit_exceeded", Duration.ofSeconds(2)),
                attempt("b/m", FailureKind.SPEND_LIMIT, 429, "insufficient_quota", null)),
                List.of(), FailureKind.SPEND_LIMIT, NOW, NOW);
        assertEquals(429, e.status());
        assertEquals("provider_spend_limit", e.code());
        assertNull(e.retryAfter());
        assertFalse(e.retryable());
    }

    @Test
    void anyRateLimitGives429WithTheEarliestRetryAfter() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.RATE_LIMIT, 429, "rate_limit_exceeded", Duration.ofSeconds(20)),
                attempt("b/m", FailureKind.SERVER_ERROR, 503, null, null),
                attempt("c/m", FailureKind.RATE_LIMIT, 429, "rate_limit_exceeded", Duration.ofMillis(2300))),
                List.of(), null, NOW, NOW);
        assertEquals(429, e.status());
        assertEquals("provider_rate_limited", e.code());
        assertEquals(Duration.ofMillis(2300), e.retryAfter());
        assertTrue(e.retryable());
    }

    @Test
    void aParkedSkippedTargetCountsAsARateLimitAndItsRecoveryCanBeTheEarliest() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.RATE_LIMIT, 429, null, Duration.ofSeconds(20)),
                attempt("b/m", FailureKind.SERVER_ERROR, 500, null, null)),
                List.of(new FinalError.Skip("c/m", "standby_b", "parked", NOW.plusMillis(7_200), true)), null, NOW, NOW);
        assertEquals(429, e.status());
        assertEquals(Duration.ofMillis(7200), e.retryAfter());

        FinalError onlyParked = FinalError.choose(List.of(attempt("a/m", FailureKind.SERVER_ERROR, 500, null, null)),
                List.of(new FinalError.Skip("c/m", "standby_a", "parked", NOW.plusSeconds(4), true)), null, NOW, NOW);
        assertEquals(429, onlyParked.status());
        assertEquals("provider_rate_limited", onlyParked.code());
        assertEquals(Duration.ofSeconds(4), onlyParked.retryAfter());
    }

    @Test
    void everyAttemptTimedOutGives408() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.TIMEOUT, 0, null, null),
                attempt("b/m", FailureKind.TIMEOUT, 0, null, null)),
                List.of(), null, NOW, NOW);
        assertEquals(408, e.status());
        assertEquals("request_timeout", e.code());
    }

    @Test
    void everyTargetSayingItCannotServeTheModelGives503ModelNotServed() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.MODEL_NOT_SERVED, 404, "model_not_found", null),
                attempt("b/m", FailureKind.MODEL_NOT_SERVED, 404, "model_not_found", null)),
                List.of(), null, NOW, NOW);
        assertEquals(503, e.status());
        assertEquals("model_not_served", e.code());
    }

    @Test
    void nothingAttemptedGives503NoAvailableProviderWithTheEarliestRecovery() {
        FinalError e = FinalError.choose(List.of(), List.of(
                new FinalError.Skip("a/m", "primary", "ejected", NOW.plusSeconds(40), false),
                new FinalError.Skip("b/m", "standby_a", "ejected", NOW.plusMillis(11_500), false)),
                null, NOW, NOW.plusMillis(11_500));
        assertEquals(503, e.status());
        assertEquals("no_available_provider", e.code());
        assertEquals(Duration.ofMillis(11_500), e.retryAfter());
        assertTrue(e.retryable());
    }

    @Test
    void everyAccountOutOfSpendGives429ProviderSpendLimitWhateverTheAction() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.SPEND_LIMIT, 429, "insufficient_quota", null),
                attempt("b/m", FailureKind.SPEND_LIMIT, 400, null, null)),
                List.of(), null, NOW, NOW.plusSeconds(900));
        assertEquals(429, e.status());
        assertEquals("provider_spend_limit", e.code());
        assertNull(e.retryAfter());
        assertFalse(e.retryable());
    }

    @Test
    void aRetryableErrorSaysToComeBackNoEarlierThanATargetCouldBeTried() {
        List<AttemptRecord> failed = List.of(attempt("a/m", FailureKind.SERVER_ERROR, 500, null, null));
        assertEquals(Duration.ofSeconds(30), FinalError.choose(failed, List.of(), null, NOW, NOW.plusSeconds(30)).retryAfter());
        // A target usable now still gets a second's spacing, so an SDK's own retries do not rerun the chain at once.
        assertEquals(FinalError.MIN_RETRY_AFTER, FinalError.choose(failed, List.of(), null, NOW, NOW).retryAfter());
        assertEquals(FinalError.MIN_RETRY_AFTER, FinalError.choose(List.of(
                attempt("a/m", FailureKind.TIMEOUT, 0, null, null)), List.of(), null, NOW, NOW).retryAfter());
    }

    @Test
    void anythingElseGives502UpstreamError() {
        FinalError e = FinalError.choose(List.of(
                attempt("a/m", FailureKind.SERVER_ERROR, 500, null, null),
                attempt("b/m", FailureKind.TIMEOUT, 0, null, null),
                attempt("c/m", FailureKind.CREDENTIAL, 401, "invalid_api_key", null)),
                List.of(), null, NOW, NOW);
        assertEquals(502, e.status());
        assertEquals("upstream_error", e.code());
    }

    @Test
    void theMessageNamesEveryTargetTriedAndSkipped() {
        List<AttemptRecord> attempts = List.of(
                attempt("openai-prod/gpt-5.4-mini", "primary", 0, FailureKind.SERVER_ERROR, 503, null, null, "HTTP 503"),
                attempt("openai-prod/gpt-5.4-mini", "primary", 1, FailureKind.SERVER_ERROR, 500, null, null, "HTTP 500"),
                attempt("openai-standby/gpt-5.4-mini", "standby_a", 0, FailureKind.CREDENTIAL, 401, "invalid_api_key",
                        null, "HTTP 401 invalid_api_key"));
        List<FinalError.Skip> skipped = List.of(
                new FinalError.Skip("openai-third/gpt-5.4-mini", "standby_b", "ejected for 25s", NOW.plusSeconds(25), false));
        FinalError e = FinalError.choose(attempts, skipped, null, NOW, NOW);

        String message = e.message(attempts, skipped);

        assertTrue(message.startsWith(e.headline()), message);
        assertTrue(message.contains("openai-prod/gpt-5.4-mini (primary): server_error, HTTP 503"), message);
        assertTrue(message.contains("openai-prod/gpt-5.4-mini (primary, retry 1): server_error, HTTP 500"), message);
        assertTrue(message.contains("openai-standby/gpt-5.4-mini (standby_a): credential, HTTP 401 invalid_api_key"), message);
        assertTrue(message.contains("Skipped: openai-third/gpt-5.4-mini (standby_b): ejected for 25s"), message);
    }

    private static AttemptRecord attempt(String target, FailureKind kind, int status, String code, Duration retryAfter) {
        return attempt(target, "primary", 0, kind, status, code, retryAfter, "HTTP " + status);
    }

    private static AttemptRecord attempt(String target, String position, int retry, FailureKind kind, int status,
                                         String code, Duration retryAfter, String message) {
        String connection = target.substring(0, target.indexOf('/'));
        String model = target.substring(target.indexOf('/') + 1);
        return new AttemptRecord(target, connection, "openai", model, position, retry, NOW, 10, kind, status,
                null, code, message, retryAfter, false, false);
    }
}
