package dev.baton.impl.engine;

import dev.baton.FailureKind;
import dev.baton.impl.health.Availability;
import dev.baton.impl.health.HealthRegistry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A request's plan as it is worked through: the targets still to try, in order, and what the
 * request learnt about them on the way. One instance per request; touched by one thread at a time.
 */
final class Chain {

    private final HealthRegistry health;
    /** Every target the plan found able to serve the request, for when one could be usable again. */
    private final List<Candidate> eligible;
    /** A list, not a queue: a parked target may be put back mid-way. */
    private final List<Candidate> queue;
    private final Set<Candidate> deferred = new HashSet<>();
    private final Set<Candidate> waitedFor = new HashSet<>();
    /** Connections this request learnt are unusable for it: a bad key or an empty account. */
    private final Set<String> burnedConnections = new HashSet<>();
    /** provider/model pairs that rejected the request as invalid: another key of the same provider would too. */
    private final Set<String> rejectedAsInvalid = new HashSet<>();

    Chain(List<Candidate> plan, HealthRegistry health) {
        this.health = health;
        this.eligible = List.copyOf(plan);
        this.queue = new ArrayList<>(plan);
    }

    /** The next target, or {@code null} when the plan ran out. */
    Candidate next() {
        return queue.isEmpty() ? null : queue.remove(0);
    }

    /** The targets still queued, in order. */
    List<Candidate> queued() {
        return queue;
    }

    /** Takes every target still queued out, for the record of what was never tried. */
    List<Candidate> drain() {
        List<Candidate> rest = List.copyOf(queue);
        queue.clear();
        return rest;
    }

    Availability availability(Candidate c) {
        return health.of(c.target().connection()).availability(c.target().model());
    }

    Gate.History history(Candidate c) {
        return new Gate.History(ruledOut(c), deferred.contains(c), waitedFor.contains(c));
    }

    boolean usableNow(Candidate c) {
        return ruledOut(c) == null && availability(c).usableNow();
    }

    /** Puts {@code c} back behind the targets of its model group still queued, once. */
    void defer(Candidate c) {
        int last = -1;
        for (int i = 0; i < queue.size(); i++) {
            if (queue.get(i).group() == c.group()) {
                last = i;
            }
        }
        deferred.add(c);
        queue.add(last + 1, c);
    }

    /** Notes a wait for {@code c}; when it is over, {@link #resume} puts it first again. */
    void waitingFor(Candidate c) {
        waitedFor.add(c);
    }

    void resume(Candidate c) {
        queue.add(0, c);
    }

    /** Learns from a failure what the rest of this request must not try again. */
    void learn(Candidate c, FailureKind kind) {
        switch (kind) {
            case CREDENTIAL, SPEND_LIMIT -> burnedConnections.add(c.target().connection());
            case INVALID_REQUEST -> rejectedAsInvalid.add(c.target().provider() + "/" + c.target().model());
            default -> { }
        }
    }

    /** Whether another target of {@code c}'s model group is still queued: the request can move on without a downgrade. */
    boolean sameModelLeft(Candidate c) {
        return queue.stream().anyMatch(q -> q.group() == c.group());
    }

    /**
     * The first moment any target able to serve this request could be tried again: now for one in
     * rotation (or being probed), else the end of its parking or ejection; {@code null} for none.
     */
    Instant usableAgain(Instant now) {
        Instant first = null;
        for (Candidate c : eligible) {
            Instant until = availability(c).until();
            Instant at = until == null ? now : until;
            first = first == null || at.isBefore(first) ? at : first;
        }
        return first;
    }

    private String ruledOut(Candidate c) {
        if (burnedConnections.contains(c.target().connection())) {
            return "the connection already failed this request for its credential or spend limit";
        }
        if (rejectedAsInvalid.contains(c.target().provider() + "/" + c.target().model())) {
            return "the same provider already rejected this request as invalid for this model";
        }
        return null;
    }
}
