package dev.baton.impl.engine;

import dev.baton.impl.config.Durations;
import dev.baton.impl.health.Availability;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * The gate: whether the next target of a request's plan may be attempted now. A rate-limited target
 * is waited for only when it comes back within {@code max-wait} and the deadline, and only once every
 * usable target of its model group was tried; an ejected one never (a request does not wait to
 * become the probe). Pure: it reads no clock and changes nothing.
 */
final class Gate {

    /** What the gate says about a target. */
    sealed interface Verdict {
    }

    /** Attempt it now; {@code probe} when the attempt is the ejected connection's one probe. */
    record Start(boolean probe) implements Verdict {
    }

    /**
     * Leave it out, with the reason for the record and when it recovers ({@code null} when not
     * waiting on a recovery); {@code parked} for a rate-limited target.
     */
    record Skip(String reason, Instant until, boolean parked) implements Verdict {
    }

    /** Put it back behind the usable targets of its model group: they are worth trying before any wait. */
    record Defer() implements Verdict {
    }

    /** Try it again after {@code duration}: it comes back within max-wait and the deadline. */
    record Wait(Duration duration) implements Verdict {
    }

    /**
     * What a request already did with its targets.
     *
     * @param ruledOut  why this request will not try a target again ({@code null} if it may)
     * @param deferred  whether it was already put back once
     * @param waitedFor whether the request already waited for it: one wait each, so waits cannot add up past max-wait
     */
    record History(String ruledOut, boolean deferred, boolean waitedFor) {
    }

    static final String PROBING = "ejected; another request is probing it";

    private Gate() {
    }

    /**
     * @param target       the next target of the plan
     * @param availability its connection's availability for its model
     * @param history      what the request already did with it
     * @param now          the wall clock, which availability is on
     * @param left         the time left before the deadline
     * @param maxWait      the longest wait for a parked target
     * @param queued       the targets still queued after it
     * @param usableNow    whether a queued target could be attempted now
     */
    static Verdict check(Candidate target, Availability availability, History history, Instant now, Duration left,
                         Duration maxWait, List<Candidate> queued, Predicate<Candidate> usableNow) {
        if (history.ruledOut() != null) {
            return new Skip(history.ruledOut(), null, false);
        }
        if (left.compareTo(Decision.MIN_ATTEMPT) < 0) {
            return new Skip("the deadline left no time for it", null, false);
        }
        Instant until = availability.until();
        Duration wait = until == null || until.isBefore(now) ? Duration.ZERO : Duration.between(now, until);
        return switch (availability.state()) {
            case AVAILABLE -> new Start(false);
            case PROBE_DUE -> new Start(true);
            case PROBING -> new Skip(PROBING, null, false);
            case EJECTED -> new Skip("ejected for " + Durations.format(wait) + " more", until, false);
            case SPENT -> new Skip("parked for its spend limit for " + Durations.format(wait) + " more", until, false);
            case PARKED -> {
                if (!history.deferred() && queued.stream()
                        .anyMatch(q -> q.group() == target.group() && usableNow.test(q))) {
                    yield new Defer();
                }
                boolean fits = wait.compareTo(maxWait) <= 0 && wait.plus(Decision.MIN_ATTEMPT).compareTo(left) <= 0;
                if (fits && !history.waitedFor()) {
                    // A millisecond past the end: the wait runs on the ticker, parking on the wall clock.
                    yield new Wait(wait.plusMillis(1));
                }
                yield new Skip("parked for " + Durations.format(wait) + " more, " + (history.waitedFor()
                        ? "parked again after a wait" : wait.compareTo(maxWait) > 0
                        ? "longer than max-wait (" + Durations.format(maxWait) + ")" : "past the deadline"), until, true);
            }
        };
    }
}
