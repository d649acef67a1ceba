package dev.baton.impl.health;

import dev.baton.FailureKind;
import dev.baton.impl.config.HealthPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionHealthTest {

    private static final String MODEL = "gpt-5.4-mini";

    /** The half-open state machine: a request takes the probe (background probing: {@link BackgroundProbeHealthTest}). */
    private static final HealthPolicy REQUEST_PROBES = HealthPolicy.DEFAULT.withProbe(HealthPolicy.Probe.REQUEST);

    private final MutableClock clock = new MutableClock();
    private final RecordingListener events = new RecordingListener();
    private final ConnectionHealth health = new ConnectionHealth("openai-prod", REQUEST_PROBES, clock, events);

    @Test
    void ejectsAfterFiveConsecutiveServerErrors() {
        fail(FailureKind.SERVER_ERROR, 4);
        assertEquals(Availability.State.AVAILABLE, state());

        fail(FailureKind.SERVER_ERROR, 1);

        Availability a = health.availability(MODEL);
        assertEquals(Availability.State.EJECTED, a.state());
        assertEquals(clock.instant().plusSeconds(30), a.until());
        assertFalse(health.tryAcquire());
    }

    @Test
    void countsConnectionFailuresAndTimeoutsTowardEjection() {
        fail(FailureKind.CONNECTION, 2);
        fail(FailureKind.TIMEOUT, 2);
        assertEquals(Availability.State.AVAILABLE, state());
        fail(FailureKind.CONNECTION, 1);
        assertEquals(Availability.State.EJECTED, state());
    }

    @Test
    void oneCredentialFailureEjectsByDefault() {
        fail(FailureKind.CREDENTIAL, 1);
        assertEquals(Availability.State.EJECTED, state());
        assertEquals("credential", health.snapshot().ejectReason());
    }

    @Test
    void aSuccessResetsTheConsecutiveCount() {
        fail(FailureKind.SERVER_ERROR, 4);
        health.succeeded();
        fail(FailureKind.SERVER_ERROR, 4);
        assertEquals(Availability.State.AVAILABLE, state());
        assertEquals(4, health.snapshot().consecutiveFailures());
    }

    @Test
    void rateLimitsNeverEjectHoweverMany() {
        for (int i = 0; i < 50; i++) {
            health.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(1), MODEL);
            clock.advanceSeconds(2);
        }
        assertEquals(Availability.State.AVAILABLE, state());
        assertEquals(0, health.snapshot().consecutiveFailures());
        assertTrue(events.ejected.isEmpty());
    }

    @Test
    void rateLimitParksForTheRetryAfter() {
        health.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(12), MODEL);

        Availability a = health.availability(MODEL);
        assertEquals(Availability.State.PARKED, a.state());
        assertEquals(MutableClock.START.plusSeconds(12), a.until());
        assertFalse(a.usableNow());
        clock.advanceSeconds(11);
        assertEquals(Availability.State.PARKED, state());
        clock.advanceSeconds(1);
        assertEquals(Availability.State.AVAILABLE, state());
    }

    @Test
    void rateLimitWithoutRetryAfterParksThirtySeconds() {
        health.failed(FailureKind.RATE_LIMIT, null, MODEL);
        assertEquals(MutableClock.START.plusSeconds(30), health.availability(MODEL).until());
    }

    @Test
    void rateLimitParkingIsCappedAtFiveMinutes() {
        health.failed(FailureKind.RATE_LIMIT, Duration.ofHours(2), MODEL);
        assertEquals(MutableClock.START.plus(Duration.ofMinutes(5)), health.availability(MODEL).until());
    }

    @Test
    void spendLimitParksFifteenMinutesWithoutEjecting() {
        health.failed(FailureKind.SPEND_LIMIT, null, MODEL);

        Availability a = health.availability(MODEL);
        assertEquals(Availability.State.SPENT, a.state(), "parked, and told apart from a rate limit");
        assertEquals("parked", health.snapshot().rotation());
        assertEquals(MutableClock.START.plus(Duration.ofMinutes(15)), a.until());
        assertEquals(0, health.snapshot().consecutiveFailures());
        clock.advance(Duration.ofMinutes(15));
        assertEquals(Availability.State.AVAILABLE, state());
    }

    @Test
    void modelNotServedDeprioritisesOnlyThatModelForFifteenMinutes() {
        health.failed(FailureKind.MODEL_NOT_SERVED, null, MODEL);

        Availability same = health.availability(MODEL);
        assertEquals(Availability.State.AVAILABLE, same.state());
        assertTrue(same.deprioritised());
        assertFalse(health.availability("gpt-5.4").deprioritised());
        clock.advance(Duration.ofMinutes(15).minusSeconds(1));
        assertTrue(health.availability(MODEL).deprioritised());
        clock.advanceSeconds(1);
        assertFalse(health.availability(MODEL).deprioritised());
    }

    @Test
    void allowsExactlyOneProbeAfterTheCoolOff() {
        eject();
        clock.advanceSeconds(29);
        assertFalse(health.tryAcquire());
        clock.advanceSeconds(1);
        assertEquals(Availability.State.PROBE_DUE, state());

        assertTrue(health.tryAcquire());
        assertFalse(health.tryAcquire());
        assertEquals(Availability.State.PROBING, state());
    }

    @Test
    void aFailedProbeDoublesTheCoolOffUpToTheMaximum() {
        ConnectionHealth h = new ConnectionHealth("c", new HealthPolicy(5, 2, Duration.ofSeconds(30),
                Duration.ofSeconds(200)).withProbe(HealthPolicy.Probe.REQUEST), clock, events);
        fail(h, FailureKind.SERVER_ERROR, 5);
        assertEquals(List.of(Duration.ofSeconds(30)), events.ejected);

        long[] expected = {60, 120, 200, 200};
        for (long seconds : expected) {
            clock.advance(h.snapshot().coolOff());
            assertTrue(h.tryAcquire());
            h.failed(FailureKind.SERVER_ERROR, null, MODEL);
            Availability a = h.availability(MODEL);
            assertEquals(Availability.State.EJECTED, a.state());
            assertEquals(clock.instant().plusSeconds(seconds), a.until());
        }
        assertEquals(List.of(Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120),
                Duration.ofSeconds(200), Duration.ofSeconds(200)), events.ejected);
    }

    @Test
    void outSinceIsWhenItLeftRotationThroughEveryFailedProbeUntilItIsBack() {
        assertNull(health.snapshot().outSince());
        Instant out = clock.instant();
        eject();
        assertEquals(out, health.snapshot().outSince());
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());
        health.failed(FailureKind.SERVER_ERROR, null, MODEL);
        assertEquals(out, health.snapshot().outSince(), "a failed probe does not start it again");
        clock.advanceSeconds(60);
        assertTrue(health.tryAcquire());
        health.succeeded();
        assertNull(health.snapshot().outSince());
    }

    @Test
    void aSuccessfulProbeRestoresAndResetsTheCoolOff() {
        eject();
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());
        health.failed(FailureKind.SERVER_ERROR, null, MODEL); // cool-off now 60 s
        clock.advanceSeconds(60);
        assertTrue(health.tryAcquire());

        health.succeeded();

        assertEquals(Availability.State.AVAILABLE, state());
        assertEquals(List.of("openai-prod"), events.restored);
        assertEquals(Duration.ofSeconds(30), health.snapshot().coolOff());
        fail(FailureKind.SERVER_ERROR, 5);
        assertEquals(clock.instant().plusSeconds(30), health.availability(MODEL).until());
    }

    @Test
    void releasingTheProbeLetsTheNextRequestProbe() {
        eject();
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());
        assertFalse(health.tryAcquire());

        health.releaseProbe();

        assertEquals(Availability.State.PROBE_DUE, state());
        assertTrue(health.tryAcquire());
    }

    @Test
    void aRateLimitOnTheProbeRestoresBecauseTheProviderAnswered() {
        eject();
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());

        health.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(5), MODEL);

        assertEquals("healthy", health.snapshot().state());
        assertEquals(List.of("openai-prod"), events.restored);
        assertEquals(Availability.State.PARKED, state());
        clock.advanceSeconds(5);
        assertEquals(Availability.State.AVAILABLE, state());
    }

    @Test
    void anInvalidRequestOnTheProbeRestores() {
        eject();
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());
        health.failed(FailureKind.INVALID_REQUEST, null, MODEL);
        assertEquals(Availability.State.AVAILABLE, state());
    }

    @Test
    void listenerSeesEjectedParkedAndRestored() {
        fail(FailureKind.SERVER_ERROR, 5);
        assertEquals(List.of(Duration.ofSeconds(30)), events.ejected);
        assertEquals(List.of("server_error"), events.ejectCauses);

        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());
        health.succeeded();
        assertEquals(List.of("openai-prod"), events.restored);

        health.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(7), MODEL);
        assertEquals(List.of(clock.instant().plusSeconds(7)), events.parkedUntil);
        assertEquals(List.of("rate_limit"), events.parkCauses);
        assertEquals(1, events.restored.size(), "a healthy connection is not restored again");
    }

    @Test
    void healthySuccessIsNotReportedAsARestoration() {
        health.succeeded();
        assertTrue(events.restored.isEmpty());
        assertNull(health.snapshot().ejectedUntil());
    }

    private Availability.State state() {
        return health.availability(MODEL).state();
    }

    private void eject() {
        fail(FailureKind.SERVER_ERROR, 5);
        assertEquals(Availability.State.EJECTED, state());
    }

    private void fail(FailureKind kind, int times) {
        fail(health, kind, times);
    }

    private static void fail(ConnectionHealth h, FailureKind kind, int times) {
        for (int i = 0; i < times; i++) {
            h.failed(kind, null, MODEL);
        }
    }

    private static final class RecordingListener implements HealthListener {
        final List<Duration> ejected = new ArrayList<>();
        final List<String> ejectCauses = new ArrayList<>();
        final List<Instant> parkedUntil = new ArrayList<>();
        final List<String> parkCauses = new ArrayList<>();
        final List<String> restored = new ArrayList<>();

        @Override
        public void ejected(String connection, Duration coolOff, String cause) {
            ejected.add(coolOff);
            ejectCauses.add(cause);
        }

        @Override
        public void parked(String connection, Instant until, String cause) {
            parkedUntil.add(until);
            parkCauses.add(cause);
        }

        @Override
        public void restored(String connection) {
            restored.add(connection);
        }
    }
}
