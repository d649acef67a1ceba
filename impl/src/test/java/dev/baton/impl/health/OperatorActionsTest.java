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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An operator's eject and restore, and the snapshot that shows every state. */
class OperatorActionsTest {

    private static final String MODEL = "gpt-5.4-mini";

    /** The half-open state machine: a request takes the probe (background probing: {@link BackgroundProbeHealthTest}). */
    private static final HealthPolicy REQUEST_PROBES = HealthPolicy.DEFAULT.withProbe(HealthPolicy.Probe.REQUEST);

    private final MutableClock clock = new MutableClock();
    private final List<String> events = new ArrayList<>();
    private final ConnectionHealth health = new ConnectionHealth("primary", REQUEST_PROBES, clock,
            new HealthListener() {
                @Override
                public void ejected(String connection, Duration coolOff, String cause) {
                    events.add("ejected " + connection + " " + coolOff + " " + cause);
                }

                @Override
                public void parked(String connection, Instant until, String cause) {
                    events.add("parked " + connection + " " + cause);
                }

                @Override
                public void restored(String connection) {
                    events.add("restored " + connection);
                }
            });

    @Test
    void anOperatorEjectionTakesAHealthyConnectionOutThenEndsInTheUsualSingleProbe() {
        health.eject(Duration.ofMinutes(10), "maintenance");

        ConnectionHealth.Snapshot s = health.snapshot();
        assertEquals("ejected", s.rotation());
        assertEquals("operator", s.ejectedBy());
        assertEquals("maintenance", s.ejectReason());
        assertEquals(MutableClock.START.plus(Duration.ofMinutes(10)), s.ejectedUntil());
        assertEquals(s.ejectedUntil(), s.probeDueAt());
        assertEquals(List.of("ejected primary PT10M operator"), events);
        assertFalse(health.tryAcquire());

        clock.advance(Duration.ofMinutes(10));
        assertEquals("probe_due", health.snapshot().rotation());
        assertTrue(health.tryAcquire());
        assertFalse(health.tryAcquire(), "one probe");
        assertEquals("probing", health.snapshot().rotation());
        assertNull(health.snapshot().probeDueAt());

        health.succeeded();
        assertEquals("healthy", health.snapshot().rotation());
        assertNull(health.snapshot().ejectedBy());
        assertEquals("restored primary", events.get(events.size() - 1));
    }

    @Test
    void aFailedProbeAfterAnOperatorEjectionIsAnEjectionByFailuresWithADoubledCoolOff() {
        health.eject(Duration.ofMinutes(1), "maintenance");
        clock.advance(Duration.ofMinutes(1));
        assertTrue(health.tryAcquire());

        health.failed(FailureKind.SERVER_ERROR, null, MODEL);

        ConnectionHealth.Snapshot s = health.snapshot();
        assertEquals("ejected", s.rotation());
        assertEquals("failures", s.ejectedBy());
        assertEquals("server_error", s.ejectReason());
        assertEquals(Duration.ofSeconds(60), s.coolOff());
        assertEquals(clock.instant().plusSeconds(60), s.ejectedUntil());
    }

    @Test
    void anAttemptAlreadyInFlightDoesNotUndoAnOperatorEjection() {
        assertTrue(health.tryAcquire()); // healthy: an attempt starts
        health.eject(Duration.ofMinutes(5), "bad deploy upstream");

        health.succeeded(); // that attempt ends well

        assertEquals("ejected", health.snapshot().rotation());
        assertEquals(Availability.State.EJECTED, health.availability(MODEL).state());
        assertFalse(events.contains("restored primary"));
    }

    @Test
    void anOperatorCanEjectAnEjectedConnectionForLongerOrShorter() {
        fail(5);
        assertEquals(clock.instant().plusSeconds(30), health.snapshot().ejectedUntil());

        health.eject(Duration.ofHours(2), "provider incident");
        assertEquals(clock.instant().plus(Duration.ofHours(2)), health.snapshot().ejectedUntil());
        assertEquals("operator", health.snapshot().ejectedBy());

        health.eject(Duration.ofSeconds(5), "shorter after all");
        assertEquals(clock.instant().plusSeconds(5), health.snapshot().ejectedUntil());
    }

    @Test
    void restoreBringsAnEjectedConnectionBackNowAndResetsTheCoolOff() {
        fail(5);
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());
        health.failed(FailureKind.TIMEOUT, null, MODEL); // failed probe: cool-off 60 s
        assertEquals(Duration.ofSeconds(60), health.snapshot().coolOff());
        events.clear();

        health.restore();

        ConnectionHealth.Snapshot s = health.snapshot();
        assertEquals("healthy", s.rotation());
        assertEquals(0, s.consecutiveFailures());
        assertEquals(Duration.ofSeconds(30), s.coolOff());
        assertNull(s.ejectedUntil());
        assertNull(s.ejectedBy());
        assertTrue(health.tryAcquire());
        assertEquals(List.of("restored primary"), events);
        fail(4);
        assertEquals("healthy", health.snapshot().rotation(), "the count starts again from zero");
    }

    @Test
    void restoreEndsParkingAndModelPenaltiesToo() {
        health.failed(FailureKind.SPEND_LIMIT, null, MODEL);
        health.failed(FailureKind.MODEL_NOT_SERVED, null, MODEL);
        assertEquals("parked", health.snapshot().rotation());
        assertEquals("spend_limit", health.snapshot().parkCause());

        health.restore();

        assertEquals(Availability.State.AVAILABLE, health.availability(MODEL).state());
        assertFalse(health.availability(MODEL).deprioritised());
        assertNull(health.snapshot().parkedUntil());
        assertEquals("restored primary", events.get(events.size() - 1));
    }

    @Test
    void restoringAHealthyConnectionIsNotReported() {
        health.restore();
        assertTrue(events.isEmpty());
    }

    @Test
    void restoreDuringAProbeLeavesTheProbeNothingToDecide() {
        fail(5);
        clock.advanceSeconds(30);
        assertTrue(health.tryAcquire());

        health.restore();
        health.failed(FailureKind.SERVER_ERROR, null, MODEL); // the probe fails afterwards

        assertEquals("healthy", health.snapshot().rotation(), "one failure of a healthy connection ejects nothing");
        assertEquals(1, health.snapshot().consecutiveFailures());
    }

    @Test
    void anOperatorEjectionMustBePositiveAndAtMostADay() {
        assertThrows(IllegalArgumentException.class, () -> health.eject(Duration.ZERO, "x"));
        assertThrows(IllegalArgumentException.class, () -> health.eject(Duration.ofSeconds(-1), "x"));
        assertThrows(IllegalArgumentException.class, () -> health.eject(Duration.ofHours(24).plusSeconds(1), "x"));
        health.eject(Duration.ofHours(24), "x");
        assertEquals("ejected", health.snapshot().rotation());
    }

    @Test
    void theSnapshotNamesEveryRotationState() {
        assertEquals("healthy", health.snapshot().rotation());

        health.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(10), MODEL);
        ConnectionHealth.Snapshot parked = health.snapshot();
        assertEquals("parked", parked.rotation());
        assertEquals("healthy", parked.state(), "parking is not part of the ejection machine");
        assertEquals(clock.instant().plusSeconds(10), parked.parkedUntil());
        assertEquals("rate_limit", parked.parkCause());
        clock.advanceSeconds(10);
        assertEquals("healthy", health.snapshot().rotation());
        assertNull(health.snapshot().parkedUntil());

        fail(5);
        ConnectionHealth.Snapshot ejected = health.snapshot();
        assertEquals("ejected", ejected.rotation());
        assertEquals("failures", ejected.ejectedBy());
        assertEquals("server_error", ejected.ejectReason());
        assertEquals(5, ejected.consecutiveFailures());
        assertEquals(clock.instant().plusSeconds(30), ejected.probeDueAt());

        clock.advanceSeconds(30);
        assertEquals("probe_due", health.snapshot().rotation());
        assertTrue(health.tryAcquire());
        assertEquals("probing", health.snapshot().rotation());
    }

    @Test
    void theRegistryActsByNameAndRefusesUnknownNames() {
        HealthRegistry registry = new HealthRegistry(List.of(), clock, HealthListener.NONE);
        assertTrue(registry.find("nope").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> registry.eject("nope", Duration.ofMinutes(1), "x"));
        assertThrows(IllegalArgumentException.class, () -> registry.restore("nope"));
    }

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            health.failed(FailureKind.SERVER_ERROR, null, MODEL);
        }
    }
}
