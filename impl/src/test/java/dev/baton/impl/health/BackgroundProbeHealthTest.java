package dev.baton.impl.health;

import dev.baton.FailureKind;
import dev.baton.impl.config.HealthPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The health state machine in background probe mode (the default): the prober, never a request, takes the probe. */
class BackgroundProbeHealthTest {

    private static final String MODEL = "gpt-5.4-mini";

    private final MutableClock clock = new MutableClock();
    private final List<String> restored = new ArrayList<>();
    private final List<Duration> ejected = new ArrayList<>();
    private final ConnectionHealth health = new ConnectionHealth("primary", HealthPolicy.DEFAULT, clock,
            new HealthListener() {
                @Override
                public void ejected(String connection, Duration out, String cause) {
                    ejected.add(out);
                }

                @Override
                public void restored(String connection) {
                    restored.add(connection);
                }
            });

    private void eject() {
        for (int i = 0; i < 5; i++) {
            health.failed(FailureKind.SERVER_ERROR, null, MODEL);
        }
    }

    @Test
    void theDefaultsProbeInTheBackgroundEveryFiveSecondsBackingOffToThirty() {
        assertEquals(HealthPolicy.Probe.BACKGROUND, HealthPolicy.DEFAULT.probe());
        assertEquals(Duration.ofSeconds(5), HealthPolicy.DEFAULT.probeInterval());
        assertEquals(Duration.ofSeconds(30), HealthPolicy.DEFAULT.maxProbeInterval());
        assertTrue(health.probesInBackground());
        assertNull(health.nextProbeAt(), "a healthy connection needs no probe");
    }

    @Test
    void noRequestEverTakesTheProbeAndTheTargetStaysEjectedUntilTheProberSucceeds() {
        eject();
        assertEquals(clock.instant().plusSeconds(5), health.nextProbeAt());
        assertFalse(health.startProbe(), "not due yet");

        clock.advanceSeconds(60);
        Availability a = health.availability(MODEL);
        assertEquals(Availability.State.EJECTED, a.state(), "past the due time, still out for requests");
        assertFalse(a.usableNow());
        assertFalse(health.tryAcquire(), "a request never becomes the probe");
        assertEquals("ejected", health.snapshot().rotation());

        assertTrue(health.startProbe());
        assertFalse(health.startProbe(), "one probe at a time");
        assertNull(health.nextProbeAt());
        assertEquals("probing", health.snapshot().rotation());
        health.succeeded();

        assertEquals("healthy", health.snapshot().rotation());
        assertEquals(List.of("primary"), restored);
        assertTrue(health.tryAcquire());
    }

    @Test
    void eachFailedProbeDoublesTheIntervalUpToTheMaximumAndASuccessResetsIt() {
        eject();
        List<Long> intervals = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            clock.set(health.nextProbeAt());
            assertTrue(health.startProbe());
            health.failed(FailureKind.CREDENTIAL, null, MODEL);
            intervals.add(Duration.between(clock.instant(), health.nextProbeAt()).toSeconds());
        }
        assertEquals(List.of(10L, 20L, 30L, 30L, 30L, 30L), intervals);
        assertEquals(List.of(Duration.ofSeconds(5)), ejected, "one ejection; a failed probe is not another");
        assertEquals(Duration.ofSeconds(30), health.snapshot().probeInterval());

        clock.set(health.nextProbeAt());
        assertTrue(health.startProbe());
        health.succeeded();
        assertEquals(Duration.ofSeconds(5), health.snapshot().probeInterval(), "the next ejection starts short again");
    }

    @Test
    void aParkedConnectionIsNotProbedBeforeItsParkingEnds() {
        health.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(90), MODEL);
        eject();

        assertEquals(clock.instant().plusSeconds(90), health.nextProbeAt(), "the Retry-After, not the 5 s interval");
        clock.advanceSeconds(89);
        assertFalse(health.startProbe());
        clock.advanceSeconds(1);
        assertTrue(health.startProbe());
    }

    @Test
    void aProbeThatCouldNotBeSentKeepsTheIntervalAndComesBackLater() {
        eject();
        clock.advanceSeconds(5);
        assertTrue(health.startProbe());
        health.probeNotSent(Duration.ofMillis(300));

        assertEquals("ejected", health.snapshot().rotation());
        assertEquals(clock.instant().plusMillis(300), health.nextProbeAt());
        assertEquals(Duration.ofSeconds(5), health.snapshot().probeInterval());
    }

    @Test
    void anOperatorsEjectionIsFirstProbedWhenItEnds() {
        health.eject(Duration.ofMinutes(10), "maintenance");

        assertEquals(clock.instant().plus(Duration.ofMinutes(10)), health.nextProbeAt());
        assertEquals(health.nextProbeAt(), health.snapshot().probeDueAt());
        assertEquals("background", health.snapshot().probe());
    }

    @Test
    void requestModeHasNoBackgroundProbes() {
        ConnectionHealth h = new ConnectionHealth("c", HealthPolicy.DEFAULT.withProbe(HealthPolicy.Probe.REQUEST),
                clock, HealthListener.NONE);
        for (int i = 0; i < 5; i++) {
            h.failed(FailureKind.SERVER_ERROR, null, MODEL);
        }
        clock.advanceSeconds(30);
        assertNull(h.nextProbeAt());
        assertFalse(h.startProbe());
        assertEquals("probe_due", h.snapshot().rotation());
        assertTrue(h.tryAcquire(), "the request is the probe");
    }
}
