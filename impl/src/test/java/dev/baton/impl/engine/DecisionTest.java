package dev.baton.impl.engine;

import dev.baton.FailureAction;
import dev.baton.FailureKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DecisionTest {

    private static final Duration JITTER = Duration.ofMillis(150);
    private static final Duration PLENTY = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(FailureKind.class)
    void stopActionStopsEveryKind(FailureKind kind) {
        assertEquals(Decision.STOP, Decision.afterFailure(kind, FailureAction.STOP, 0, 3, null, JITTER, PLENTY, true));
    }

    @Test
    void aTimeoutIsNeverRetriedEvenWhenNothingElseIsLeft() {
        assertEquals(Decision.NEXT,
                Decision.afterFailure(FailureKind.TIMEOUT, FailureAction.RETRY, 0, 3, null, JITTER, PLENTY, false));
        assertEquals(Decision.NEXT,
                Decision.afterFailure(FailureKind.TIMEOUT, FailureAction.FAILOVER, 0, 3, null, JITTER, PLENTY, false));
    }

    @Test
    void aRateLimitFailsOverWhileOtherTargetsRemain() {
        assertEquals(Decision.NEXT, Decision.afterFailure(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofSeconds(1), JITTER, PLENTY, true));
    }

    @Test
    void aRateLimitIsRetriedAfterItsRetryAfterWhenItIsTheLastTargetAndTheWaitFits() {
        Decision d = Decision.afterFailure(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofSeconds(2), JITTER, Duration.ofSeconds(10), false);
        assertEquals(new Decision(Decision.Step.RETRY_SAME, Duration.ofSeconds(2)), d);
    }

    @Test
    void aRateLimitWithoutRetryAfterWaitsTheDefaultThirtySecondsWhenThatFits() {
        assertEquals(new Decision(Decision.Step.RETRY_SAME, Duration.ofSeconds(30)), Decision.afterFailure(
                FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1, null, JITTER, PLENTY, false));
        assertEquals(Decision.NEXT, Decision.afterFailure(
                FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1, null, JITTER, Duration.ofSeconds(20), false));
    }

    @Test
    void aRateLimitWhoseRetryAfterDoesNotFitTheDeadlineMovesOn() {
        assertEquals(Decision.NEXT, Decision.afterFailure(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofSeconds(20), JITTER, Duration.ofSeconds(10), false));
    }

    @Test
    void aRateLimitIsNotRetriedOnceRetriesAreSpent() {
        assertEquals(Decision.NEXT, Decision.afterFailure(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 1, 1,
                Duration.ofSeconds(1), JITTER, PLENTY, false));
        assertEquals(Decision.NEXT, Decision.afterFailure(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 0,
                Duration.ofSeconds(1), JITTER, PLENTY, false));
    }

    @Test
    void aServerErrorIsRetriedWithJitterUpToMaxRetries() {
        for (int done = 0; done < 3; done++) {
            assertEquals(new Decision(Decision.Step.RETRY_SAME, JITTER), Decision.afterFailure(
                    FailureKind.SERVER_ERROR, FailureAction.RETRY, done, 3, null, JITTER, PLENTY, true));
        }
        assertEquals(Decision.NEXT, Decision.afterFailure(
                FailureKind.SERVER_ERROR, FailureAction.RETRY, 3, 3, null, JITTER, PLENTY, true));
    }

    @Test
    void aServerErrorWaitsTheProvidersRetryAfterInsteadOfJitter() {
        assertEquals(new Decision(Decision.Step.RETRY_SAME, Duration.ofSeconds(3)), Decision.afterFailure(
                FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1, Duration.ofSeconds(3), JITTER, PLENTY, true));
    }

    @Test
    void aConnectionFailureIsRetriedLikeAServerError() {
        assertEquals(new Decision(Decision.Step.RETRY_SAME, JITTER), Decision.afterFailure(
                FailureKind.CONNECTION, FailureAction.RETRY, 0, 1, null, JITTER, PLENTY, true));
        assertEquals(Decision.NEXT, Decision.afterFailure(
                FailureKind.CONNECTION, FailureAction.RETRY, 1, 1, null, JITTER, PLENTY, true));
    }

    @Test
    void aServerErrorIsRetriedOnlyWhenDelayPlusOneHundredMillisecondsFits() {
        Duration delay = Duration.ofMillis(900);
        assertEquals(new Decision(Decision.Step.RETRY_SAME, delay), Decision.afterFailure(
                FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1, null, delay, Duration.ofMillis(1000), true));
        assertEquals(Decision.NEXT, Decision.afterFailure(
                FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1, null, delay, Duration.ofMillis(999), true));
    }

    @Test
    void aServerErrorWithActionFailoverIsNotRetried() {
        assertEquals(Decision.NEXT, Decision.afterFailure(
                FailureKind.SERVER_ERROR, FailureAction.FAILOVER, 0, 3, null, JITTER, PLENTY, false));
        assertEquals(Decision.NEXT, Decision.afterFailure(
                FailureKind.CONNECTION, FailureAction.FAILOVER, 0, 3, null, JITTER, PLENTY, false));
    }

    @ParameterizedTest
    @EnumSource(value = FailureKind.class,
            names = {"SPEND_LIMIT", "CREDENTIAL", "MODERATION", "INVALID_REQUEST", "MODEL_NOT_SERVED"})
    void nonTransientKindsMoveToTheNextTargetAndAreNeverRetried(FailureKind kind) {
        assertEquals(Decision.NEXT, Decision.afterFailure(kind, FailureAction.FAILOVER, 0, 3,
                Duration.ofSeconds(1), JITTER, PLENTY, false));
        assertEquals(Decision.NEXT, Decision.afterFailure(kind, FailureAction.RETRY, 0, 3,
                Duration.ofSeconds(1), JITTER, PLENTY, false));
    }
}
