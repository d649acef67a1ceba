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
    private static final Duration MAX_WAIT = Duration.ofSeconds(2);
    private static final Duration PLENTY = Duration.ofSeconds(60);

    private static Decision decide(FailureKind kind, FailureAction action, int done, int max, Duration retryAfter,
                                   Duration remaining, boolean sameModelLeft) {
        return Decision.afterFailure(false, kind, action, done, max, retryAfter, JITTER, MAX_WAIT, remaining, sameModelLeft);
    }

    private static Decision retryAfter(Duration delay) {
        return new Decision(Decision.Step.RETRY_SAME, delay);
    }

    @ParameterizedTest
    @EnumSource(FailureKind.class)
    void stopActionStopsEveryKind(FailureKind kind) {
        assertEquals(Decision.STOP, decide(kind, FailureAction.STOP, 0, 3, null, PLENTY, true));
    }

    @ParameterizedTest
    @EnumSource(FailureKind.class)
    void nothingMovesAfterTheCommitPointWhateverTheRouteSays(FailureKind kind) {
        for (FailureAction action : FailureAction.values()) {
            assertEquals(Decision.STOP, Decision.afterFailure(true, kind, action, 0, 3, null, JITTER, MAX_WAIT, PLENTY,
                    true), kind + " with " + action);
        }
    }

    @Test
    void aTimeoutIsNeverRetriedEvenWhenNothingElseIsLeft() {
        assertEquals(Decision.NEXT, decide(FailureKind.TIMEOUT, FailureAction.RETRY, 0, 3, null, PLENTY, false));
        assertEquals(Decision.NEXT, decide(FailureKind.TIMEOUT, FailureAction.FAILOVER, 0, 3, null, PLENTY, false));
    }

    @Test
    void aRateLimitFailsOverWhileAnotherAccountOfTheModelRemains() {
        assertEquals(Decision.NEXT, decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofSeconds(1), PLENTY, true));
    }

    @Test
    void aShortRateLimitOnTheLastAccountOfTheModelIsWaitedForBeforeAnyDowngrade() {
        assertEquals(retryAfter(Duration.ofSeconds(2)), decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofSeconds(2), Duration.ofSeconds(10), false));
    }

    @Test
    void aRateLimitLongerThanMaxWaitIsNeverWaitedFor() {
        assertEquals(Decision.NEXT, decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofMillis(2001), PLENTY, false));
        // Without a Retry-After the connection is parked 30 s: far past max-wait.
        assertEquals(Decision.NEXT, decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1, null, PLENTY, false));
        assertEquals(retryAfter(Duration.ofSeconds(30)), Decision.afterFailure(false, FailureKind.RATE_LIMIT,
                FailureAction.FAILOVER, 0, 1, null, JITTER, Duration.ofMinutes(1), PLENTY, false));
    }

    @Test
    void aRateLimitWhoseRetryAfterDoesNotFitTheDeadlineMovesOn() {
        assertEquals(Decision.NEXT, decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 1,
                Duration.ofMillis(1950), Duration.ofSeconds(2), false));
    }

    @Test
    void aRateLimitIsNotRetriedOnceRetriesAreSpent() {
        assertEquals(Decision.NEXT, decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 1, 1,
                Duration.ofSeconds(1), PLENTY, false));
        assertEquals(Decision.NEXT, decide(FailureKind.RATE_LIMIT, FailureAction.FAILOVER, 0, 0,
                Duration.ofSeconds(1), PLENTY, false));
    }

    @Test
    void aServerErrorIsRetriedWithJitterUpToMaxRetries() {
        for (int done = 0; done < 3; done++) {
            assertEquals(retryAfter(JITTER), decide(FailureKind.SERVER_ERROR, FailureAction.RETRY, done, 3, null, PLENTY, true));
        }
        assertEquals(Decision.NEXT, decide(FailureKind.SERVER_ERROR, FailureAction.RETRY, 3, 3, null, PLENTY, true));
    }

    @Test
    void aServerErrorWaitsTheProvidersRetryAfterOnlyWithinMaxWait() {
        assertEquals(retryAfter(Duration.ofSeconds(2)), decide(FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1,
                Duration.ofSeconds(2), PLENTY, true));
        assertEquals(Decision.NEXT, decide(FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1,
                Duration.ofSeconds(3), PLENTY, true));
    }

    @Test
    void aConnectionFailureIsRetriedLikeAServerError() {
        assertEquals(retryAfter(JITTER), decide(FailureKind.CONNECTION, FailureAction.RETRY, 0, 1, null, PLENTY, true));
        assertEquals(Decision.NEXT, decide(FailureKind.CONNECTION, FailureAction.RETRY, 1, 1, null, PLENTY, true));
    }

    @Test
    void aServerErrorIsRetriedOnlyWhenDelayPlusOneHundredMillisecondsFits() {
        Duration delay = Duration.ofMillis(900);
        assertEquals(retryAfter(delay), Decision.afterFailure(false, FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1,
                null, delay, MAX_WAIT, Duration.ofMillis(1000), true));
        assertEquals(Decision.NEXT, Decision.afterFailure(false, FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1,
                null, delay, MAX_WAIT, Duration.ofMillis(999), true));
    }

    @Test
    void aJitteredBackoffHasItsOwnCapAndIsNotCutByMaxWait() {
        assertEquals(retryAfter(Duration.ofMillis(300)), Decision.afterFailure(false, FailureKind.SERVER_ERROR,
                FailureAction.RETRY, 0, 1, null, Duration.ofMillis(300), Duration.ZERO, PLENTY, true));
        assertEquals(Decision.NEXT, Decision.afterFailure(false, FailureKind.SERVER_ERROR, FailureAction.RETRY, 0, 1,
                Duration.ofMillis(300), JITTER, Duration.ZERO, PLENTY, true));
    }

    @Test
    void aServerErrorWithActionFailoverIsNotRetried() {
        assertEquals(Decision.NEXT, decide(FailureKind.SERVER_ERROR, FailureAction.FAILOVER, 0, 3, null, PLENTY, false));
        assertEquals(Decision.NEXT, decide(FailureKind.CONNECTION, FailureAction.FAILOVER, 0, 3, null, PLENTY, false));
    }

    @ParameterizedTest
    @EnumSource(value = FailureKind.class,
            names = {"SPEND_LIMIT", "CREDENTIAL", "MODERATION", "INVALID_REQUEST", "MODEL_NOT_SERVED"})
    void nonTransientKindsMoveToTheNextTargetAndAreNeverRetried(FailureKind kind) {
        assertEquals(Decision.NEXT, decide(kind, FailureAction.FAILOVER, 0, 3, Duration.ofSeconds(1), PLENTY, false));
        assertEquals(Decision.NEXT, decide(kind, FailureAction.RETRY, 0, 3, Duration.ofSeconds(1), PLENTY, false));
    }
}
