package dev.baton.impl.engine;

import dev.baton.impl.health.Availability;
import dev.baton.impl.health.Availability.State;
import dev.baton.spi.ProviderTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The gate as the pure function it is: one verdict per situation, no engine, no clock. */
class GateTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final Duration MAX_WAIT = Duration.ofSeconds(2);
    private static final Duration PLENTY = Duration.ofSeconds(60);
    private static final Gate.History FRESH = new Gate.History(null, false, false);

    private static final Candidate A = candidate("a", 0, 0);
    private static final Candidate B = candidate("b", 1, 0);
    private static final Candidate FALLBACK = candidate("c", 2, 1);

    private static Candidate candidate(String connection, int index, int group) {
        String model = group == 0 ? "m" : "n";
        return new Candidate(model, new ProviderTarget(connection, "openai", URI.create("http://127.0.0.1:1"), "sk-x",
                model, Map.of()), index, group);
    }

    private static Availability parkedFor(Duration wait) {
        return new Availability(State.PARKED, NOW.plus(wait), false);
    }

    private static Gate.Verdict check(Availability availability, Gate.History history, Duration left,
                                      List<Candidate> queued, Set<Candidate> usable) {
        return Gate.check(A, availability, history, NOW, left, MAX_WAIT, queued, usable::contains);
    }

    private static Gate.Verdict check(Availability availability) {
        return check(availability, FRESH, PLENTY, List.of(), Set.of());
    }

    @Test
    void aTargetInRotationStartsAndOneWhoseCoolOffIsOverStartsAsTheProbe() {
        assertEquals(new Gate.Start(false), check(new Availability(State.AVAILABLE, null, false)));
        assertEquals(new Gate.Start(true), check(new Availability(State.PROBE_DUE, NOW.minusSeconds(1), false)));
    }

    @Test
    void anEjectedTargetIsSkippedWhateverItsCoolOffAndNoRequestWaitsToBecomeTheProbe() {
        Instant until = NOW.plusMillis(500);
        assertEquals(new Gate.Skip("ejected for 500ms more", until, false),
                check(new Availability(State.EJECTED, until, false)));
        assertEquals(new Gate.Skip(Gate.PROBING, null, false), check(new Availability(State.PROBING, until, false)));
    }

    @Test
    void aSpentAccountIsSkippedAndNeverWaitedFor() {
        Instant until = NOW.plus(Duration.ofMinutes(15));
        assertEquals(new Gate.Skip("parked for its spend limit for 900s more", until, false),
                check(new Availability(State.SPENT, until, false)));
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void whatTheRequestRuledOutIsSkippedWithItsReasonInEveryState(State state) {
        Gate.History burned = new Gate.History("the connection already failed this request", false, false);
        assertEquals(new Gate.Skip("the connection already failed this request", null, false),
                check(new Availability(state, null, false), burned, PLENTY, List.of(), Set.of()));
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void noAttemptStartsWithLessThanTheShortestAttemptLeft(State state) {
        assertEquals(new Gate.Skip("the deadline left no time for it", null, false),
                check(new Availability(state, null, false), FRESH, Duration.ofMillis(99), List.of(), Set.of()));
    }

    @Test
    void aShortlyParkedTargetIsWaitedForAMillisecondPastItsParking() {
        assertEquals(new Gate.Wait(Duration.ofMillis(1_501)), check(parkedFor(Duration.ofMillis(1_500))));
    }

    @Test
    void aParkedTargetGoesBehindAUsableOneOfTheSameModelOnce() {
        Availability parked = parkedFor(Duration.ofSeconds(1));
        assertEquals(new Gate.Defer(), check(parked, FRESH, PLENTY, List.of(B), Set.of(B)));
        assertEquals(new Gate.Wait(Duration.ofMillis(1_001)),
                check(parked, new Gate.History(null, true, false), PLENTY, List.of(B), Set.of(B)));
    }

    @Test
    void aParkedTargetIsWaitedForBeforeADowngradeToAnotherModel() {
        assertEquals(new Gate.Wait(Duration.ofMillis(1_001)),
                check(parkedFor(Duration.ofSeconds(1)), FRESH, PLENTY, List.of(FALLBACK), Set.of(FALLBACK)));
    }

    @Test
    void anUnusableTargetOfTheSameModelIsNoReasonToDefer() {
        assertEquals(new Gate.Wait(Duration.ofMillis(1_001)),
                check(parkedFor(Duration.ofSeconds(1)), FRESH, PLENTY, List.of(B), Set.of()));
    }

    @Test
    void aParkingLongerThanMaxWaitIsSkippedAsParked() {
        Availability parked = parkedFor(Duration.ofSeconds(30));
        assertEquals(new Gate.Skip("parked for 30s more, longer than max-wait (2s)", parked.until(), true),
                check(parked));
    }

    @Test
    void aWaitThatLeavesNoTimeForTheAttemptIsNotTaken() {
        Availability parked = parkedFor(Duration.ofSeconds(1));
        assertEquals(new Gate.Skip("parked for 1s more, past the deadline", parked.until(), true),
                check(parked, FRESH, Duration.ofMillis(1_050), List.of(), Set.of()));
    }

    @Test
    void aTargetParkedAgainAfterAWaitIsNotWaitedForTwice() {
        Availability parked = parkedFor(Duration.ofSeconds(1));
        assertEquals(new Gate.Skip("parked for 1s more, parked again after a wait", parked.until(), true),
                check(parked, new Gate.History(null, false, true), PLENTY, List.of(), Set.of()));
    }
}
