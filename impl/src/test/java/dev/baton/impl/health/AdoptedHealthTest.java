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

/** Another node's view of a connection, adopted by this node's {@link ConnectionHealth} (a cluster's sharing). */
class AdoptedHealthTest {

    private final MutableClock clock = new MutableClock();
    private final List<String> events = new ArrayList<>();
    private final HealthListener listener = new HealthListener() {
        @Override
        public void ejected(String connection, Duration coolOff, String cause) {
            events.add("ejected " + coolOff.toSeconds() + "s " + cause);
        }

        @Override
        public void parked(String connection, Instant until, String cause) {
            events.add("parked " + cause);
        }

        @Override
        public void restored(String connection) {
            events.add("restored");
        }
    };
    private final ConnectionHealth here = new ConnectionHealth("a", HealthPolicy.DEFAULT, clock, listener);
    private final ConnectionHealth there = new ConnectionHealth("a", HealthPolicy.DEFAULT, clock, HealthListener.NONE);

    @Test
    void anotherNodesRateLimitParksThisNodeUntilTheSameInstant() {
        there.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(20), "m");
        assertFalse(here.adopt(there.shared()));
        assertEquals(Availability.State.PARKED, here.availability("m").state());
        assertEquals(there.snapshot().parkedUntil(), here.snapshot().parkedUntil());
        assertEquals(List.of("parked rate_limit"), events);
    }

    @Test
    void anotherNodesEjectionIsTakenWithItsProbeTimeAndReported() {
        for (int i = 0; i < 5; i++) {
            there.failed(FailureKind.SERVER_ERROR, null, "m");
        }
        here.adopt(there.shared());
        assertEquals("ejected", here.snapshot().state());
        assertEquals(there.nextProbeAt(), here.nextProbeAt(), "both nodes' probers aim at the same round");
        assertEquals("failures", here.snapshot().ejectedBy());
        assertEquals(List.of("ejected 5s server_error"), events);
    }

    @Test
    void anotherNodesFailedProbeMovesTheProbeWithoutANewEjection() {
        for (int i = 0; i < 5; i++) {
            there.failed(FailureKind.SERVER_ERROR, null, "m");
        }
        here.adopt(there.shared());
        clock.advance(Duration.ofSeconds(6));
        assertTrue(there.startProbe());
        there.failed(FailureKind.SERVER_ERROR, null, "m");

        assertTrue(here.adopt(there.shared()), "the probe moved: the caller reschedules its prober");
        assertEquals(there.nextProbeAt(), here.nextProbeAt());
        assertEquals(Duration.ofSeconds(10), here.snapshot().probeInterval(), "the doubled interval is shared");
        assertEquals(1, events.size(), "one ejection reported, not one per failed probe");
    }

    @Test
    void anotherNodesRestorationBringsItBackAndAnOperatorsClearsTheParking() {
        there.eject(Duration.ofMinutes(10), "maintenance");
        there.failed(FailureKind.RATE_LIMIT, Duration.ofSeconds(60), "m");
        here.adopt(there.shared());
        assertEquals("operator", here.snapshot().ejectedBy());

        there.restore();
        here.adopt(there.shared());
        assertEquals("healthy", here.snapshot().state());
        assertNull(here.snapshot().parkedUntil(), "an operator's restore ends the parking everywhere");
        assertEquals(Availability.State.AVAILABLE, here.availability("m").state());
        assertEquals("restored", events.get(events.size() - 1));
    }
}
