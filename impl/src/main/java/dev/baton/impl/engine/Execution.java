package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.config.Durations;
import dev.baton.impl.health.Availability;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.limits.ConnectionGuards;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One request on its way through the chain: the attempt, classify, act, answer and record stages.
 * Subclasses run an attempt in their mode (a whole answer, or a stream up to its commit point).
 *
 * <p>Attempts run one after another, never at once, so the loop's state is touched by one thread
 * at a time; the hand-offs (HTTP client callbacks, the timer) order those accesses. Methods that
 * a caller's cancel can race with are guarded by {@link #finished}.
 */
abstract class Execution {

    private static final System.Logger LOG = System.getLogger(Execution.class.getName());

    final EngineContext ctx;
    final ChatRequest request;
    final Resolution resolution;
    final String id;
    final Instant startedAt;
    /** The deadline on the monotonic clock: wall-clock jumps must not stretch or cut it. */
    private final long deadlineNanos;

    /** The targets still to try, in the plan's order; a list because a parked target may be put back mid-way. */
    private final List<Candidate> queue;
    private final List<AttemptRecord> attempts = new ArrayList<>();
    private final List<FinalError.Skip> skipped = new ArrayList<>();
    private final Set<Candidate> deferred = new HashSet<>();
    /** Parked targets this request already waited for: one wait each, so no chain of waits adds up past max-wait. */
    private final Set<Candidate> waitedFor = new HashSet<>();
    /** Every target the plan found able to serve the request, for when one could be usable again. */
    private final List<Candidate> eligible;
    /** Connections this request learnt are unusable for it: a bad key or an empty account. */
    private final Set<String> burnedConnections = new HashSet<>();
    /** provider/model pairs that rejected the request as invalid: another key of the same provider would too. */
    private final Set<String> rejectedAsInvalid = new HashSet<>();
    private volatile boolean finished;
    private volatile Candidate inFlight;
    private volatile boolean inFlightIsProbe;
    private volatile int inFlightRetry;
    private volatile Instant inFlightStarted;
    private volatile long inFlightStartNanos;
    private volatile CompletableFuture<Void> attemptEnded;
    /** What the observer returned at admission, handed back when the request ends. */
    private final Object admission;

    Execution(EngineContext ctx, ChatRequest request, Resolution resolution, String id) {
        this.ctx = ctx;
        this.request = request;
        this.resolution = resolution;
        this.id = id;
        this.startedAt = ctx.clock().instant();
        Duration total = request.timeout().filter(t -> t.compareTo(resolution.policy().deadline()) < 0)
                .orElse(resolution.policy().deadline());
        this.deadlineNanos = System.nanoTime() + total.toNanos();
        Planner.Plan plan = Planner.plan(resolution.candidates(), request.body(), ctx.config(), ctx.health());
        this.queue = new ArrayList<>(plan.order());
        this.eligible = plan.order();
        this.skipped.addAll(plan.skipped());
        this.admission = observe(() -> ctx.observer().admitted(id, request));
    }

    /** Runs one attempt; must end in exactly one call of {@link #attemptFailed} or the mode's success path. */
    abstract void runAttempt(Candidate candidate, int retry, Duration timeout);

    /** The attempt's time limit: the route's attempt timeout cut to what is left. */
    Duration attemptTimeout() {
        return min(resolution.policy().attemptTimeout(), remaining());
    }

    abstract void deliverFailure(FailoverException failure);

    /** Whether this mode can answer with the policy's degraded text instead of a final error. */
    abstract boolean answersDegraded();

    /** Answers with the degraded text; only called when {@link #answersDegraded()}. */
    void deliverDegraded(String text, UpstreamFailedException cause) {
        throw new UnsupportedOperationException();
    }

    /**
     * Stops the request for a caller that went away: the attempt in flight is recorded as abandoned
     * (health is not touched: the provider did nothing wrong) and the request as 499. Aborting the
     * attempt's exchange is the mode's job.
     *
     * @param servedBy         who was serving, when output had reached the caller; else {@code null}
     * @param firstTokenMillis when that output came, or {@code null}
     */
    void abandon(ServedBy servedBy, Long firstTokenMillis) {
        if (finished) {
            return;
        }
        finished = true;
        Candidate c = inFlight;
        if (c != null) {
            releaseProbe();
            endAttempt();
            recordAttempt(c, inFlightRetry, inFlightStarted, inFlightStartNanos, null, servedBy != null, true);
        }
        save(false, 499, "client_closed_request", servedBy, servedBy != null, firstTokenMillis, null, false);
    }

    /**
     * The gate: takes the next target the request may try now. A rate-limited target is waited for
     * only when it comes back within {@code max-wait} and the deadline, and only once every usable
     * target of its model group was tried; an ejected one never (a request does not wait to become
     * the probe). What cannot be tried is skipped with its reason and recovery time.
     */
    final void next() {
        while (!finished) {
            if (queue.isEmpty()) {
                fail(null);
                return;
            }
            Candidate c = queue.remove(0);
            String sameRequestReason = ruledOut(c);
            if (sameRequestReason != null) {
                skip(c, sameRequestReason, null, false);
                continue;
            }
            Duration left = remaining();
            if (left.compareTo(Decision.MIN_ATTEMPT) < 0) {
                skip(c, "the deadline left no time for it", null, false);
                continue;
            }
            ConnectionHealth health = ctx.health().of(c.target().connection());
            Availability availability = health.availability(c.target().model());
            Duration wait = availability.until() == null ? Duration.ZERO
                    : max(Duration.ZERO, Duration.between(ctx.clock().instant(), availability.until()));
            switch (availability.state()) {
                case AVAILABLE, PROBE_DUE -> {
                    if (health.tryAcquire()) {
                        start(c, 0, availability.state() == Availability.State.PROBE_DUE);
                        return;
                    }
                    skip(c, "ejected; another request is probing it", null, false);
                }
                case PROBING -> skip(c, "ejected; another request is probing it", null, false);
                case EJECTED -> skip(c, "ejected for " + Durations.format(wait) + " more", availability.until(), false);
                case SPENT -> skip(c, "parked for its spend limit for " + Durations.format(wait) + " more",
                        availability.until(), false);
                case PARKED -> {
                    if (deferBehindSameModel(c)) {
                        continue;
                    }
                    Duration maxWait = resolution.policy().maxWait();
                    if (wait.compareTo(maxWait) <= 0 && wait.plus(Decision.MIN_ATTEMPT).compareTo(left) <= 0
                            && waitedFor.add(c)) {
                        // A millisecond past the end: the timer runs on the monotonic clock, parking on the wall clock.
                        later(wait.plusMillis(1), () -> {
                            queue.add(0, c);
                            next();
                        });
                        return;
                    }
                    skip(c, "parked for " + Durations.format(wait) + " more, " + (waitedFor.contains(c)
                            ? "parked again after a wait" : wait.compareTo(maxWait) > 0
                            ? "longer than max-wait (" + Durations.format(maxWait) + ")" : "past the deadline"),
                            availability.until(), true);
                }
            }
        }
    }

    /**
     * Puts a parked target back behind the usable targets of its model group still queued, once:
     * they are worth trying before any wait.
     */
    private boolean deferBehindSameModel(Candidate c) {
        if (deferred.contains(c) || queue.stream().noneMatch(q -> q.group() == c.group() && usableNow(q))) {
            return false;
        }
        int last = -1;
        for (int i = 0; i < queue.size(); i++) {
            if (queue.get(i).group() == c.group()) {
                last = i;
            }
        }
        deferred.add(c);
        queue.add(last + 1, c);
        return true;
    }

    /** Whether another target of {@code c}'s model group is still queued: the request can move on without a downgrade. */
    private boolean sameModelLeft(Candidate c) {
        return queue.stream().anyMatch(q -> q.group() == c.group());
    }

    private boolean usableNow(Candidate c) {
        return ruledOut(c) == null
                && ctx.health().of(c.target().connection()).availability(c.target().model()).usableNow();
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

    private void start(Candidate c, int retry, boolean probe) {
        inFlightIsProbe = probe;
        inFlightRetry = retry;
        inFlightStarted = ctx.clock().instant();
        inFlightStartNanos = System.nanoTime();
        inFlight = c;
        CompletableFuture<Void> ended = new CompletableFuture<>();
        attemptEnded = ended;
        ConnectionGuards.Refusal refused = ctx.guards().tryStart(c.target().connection(), () -> {
            try {
                runAttempt(c, retry, attemptTimeout());
            } catch (RuntimeException e) {
                // An adapter that throws instead of failing its future is a bug; keep the request alive.
                LOG.log(Level.ERROR, "adapter " + c.target().provider() + " threw", e);
                attemptFailed(c, retry, ctx.clock().instant(), System.nanoTime(), ProviderFailure.transport(
                        FailureKind.CONNECTION, "the adapter failed: " + e.getClass().getSimpleName()), false);
            }
        }, ended);
        if (refused != null) {
            // Our own limit, not the provider's doing: health is untouched and the chain moves on.
            releaseProbe();
            inFlight = null;
            Instant until = refused.retryAfter() == null ? null : ctx.clock().instant().plus(refused.retryAfter());
            skip(c, refused.reason(), until, until != null);
            next();
        }
    }

    /** Releases the attempt's place under its connection's local limits. */
    private void endAttempt() {
        CompletableFuture<Void> ended = attemptEnded;
        if (ended != null) {
            ended.complete(null);
        }
    }

    /** Classify is done by the adapter; this is act: health, record, decision. */
    final void attemptFailed(Candidate c, int retry, Instant started, long startNanos, ProviderFailure f,
                             boolean afterCommit) {
        inFlight = null;
        endAttempt();
        ctx.health().of(c.target().connection()).failed(f.kind(), f.retryAfter(), c.target().model());
        recordAttempt(c, retry, started, startNanos, f, afterCommit);
        if (finished) {
            return;
        }
        switch (f.kind()) {
            case CREDENTIAL, SPEND_LIMIT -> burnedConnections.add(c.target().connection());
            case INVALID_REQUEST -> rejectedAsInvalid.add(c.target().provider() + "/" + c.target().model());
            default -> { }
        }
        var policy = resolution.policy();
        Decision decision = Decision.afterFailure(f.kind(), policy.action(f.kind()), retry, policy.sameTargetRetries(),
                f.retryAfter(), Backoff.fullJitter(policy.retryBackoff(), policy.retryBackoffMax(), retry, ctx.random()),
                policy.maxWait(), remaining(), sameModelLeft(c));
        switch (decision.step()) {
            case STOP -> fail(f.kind());
            case NEXT -> next();
            case RETRY_SAME -> {
                if (ctx.budget().tryWithdraw()) {
                    later(decision.delay(), () -> retry(c, retry + 1));
                } else {
                    LOG.log(Level.DEBUG, "{0}: retry budget spent, failing over instead of retrying {1}", id, c.name());
                    observe(() -> {
                        ctx.observer().retryRefused(id, c.target().connection());
                        return null;
                    });
                    next();
                }
            }
        }
    }

    private void retry(Candidate c, int retry) {
        if (finished) {
            return;
        }
        // The failure may have ejected it (a failed probe, or the Nth failure in a row).
        if (remaining().compareTo(Decision.MIN_ATTEMPT) < 0 || !ctx.health().of(c.target().connection()).tryAcquire()) {
            next();
            return;
        }
        start(c, retry, false);
    }

    /** A success of the attempt in flight: health and record; the mode delivers the answer. */
    final RequestRecord succeeded(Candidate c, int retry, Instant started, long startNanos, boolean committed,
                                  Long firstTokenMillis, JsonObject usage) {
        inFlight = null;
        endAttempt();
        ctx.health().of(c.target().connection()).succeeded();
        recordAttempt(c, retry, started, startNanos, null, false);
        finished = true;
        return save(true, 200, null, servedBy(c), committed, firstTokenMillis, usage, false);
    }

    /** A stream that failed after its commit point: recorded, never retried. */
    final RequestRecord brokenAfterCommit(Candidate c, int retry, Instant started, long startNanos, ProviderFailure f,
                                          String code, Long firstTokenMillis) {
        inFlight = null;
        endAttempt();
        ctx.health().of(c.target().connection()).failed(f.kind(), f.retryAfter(), c.target().model());
        recordAttempt(c, retry, started, startNanos, f, true);
        finished = true;
        return save(false, 200, code, servedBy(c), true, firstTokenMillis, null, false);
    }

    boolean finished() {
        return finished;
    }

    ServedBy servedBy(Candidate c) {
        return new ServedBy(c.target().model(), c.target().provider(), c.target().connection(), c.position(),
                resolution.routeName());
    }

    ProviderAdapter adapter(Candidate c) {
        return ctx.adapters().get(c.target().provider());
    }

    Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    /** Milliseconds from admission to now, for first-token times. */
    long sinceStart() {
        return Duration.between(startedAt, ctx.clock().instant()).toMillis();
    }

    long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** Runs {@code action} on the timer after {@code delay}; an unexpected failure still answers the caller. */
    ScheduledFuture<?> later(Duration delay, Runnable action) {
        return ctx.timer().schedule(() -> {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, id + ": internal error", e);
                fail(null);
            }
        }, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    private void fail(FailureKind stoppedBy) {
        if (finished) {
            return;
        }
        finished = true;
        queue.forEach(c -> skip(c, "not tried: the request stopped at a " + (stoppedBy == null ? "failure" : stoppedBy.wireName())
                + " failure", null, false));
        queue.clear();
        Instant now = ctx.clock().instant();
        FinalError error = FinalError.choose(attempts, skipped, stoppedBy, now, usableAgain(now));
        String message = ctx.redactor().clean(error.message(attempts, skipped));
        String degradedText = resolution.policy().degraded();
        boolean degrade = degradedText != null && error.degradable() && answersDegraded();
        RequestRecord record = save(false, error.status(), error.code(), null, false, null, null, degrade);
        LOG.log(Level.INFO, "{0}: no target served {1}: {2} {3}{4}", id, request.model(), error.status(), error.code(),
                degrade ? "; answered with the degraded text" : "");
        UpstreamFailedException failure = error.toException(message, record);
        if (degrade) {
            deliverDegraded(degradedText, failure);
        } else {
            deliverFailure(failure);
        }
    }

    /**
     * The first moment any target able to serve this request could be tried again: now for one in
     * rotation (or being probed), else the end of its parking or ejection; {@code null} for none.
     */
    private Instant usableAgain(Instant now) {
        Instant first = null;
        for (Candidate c : eligible) {
            Availability a = ctx.health().of(c.target().connection()).availability(c.target().model());
            Instant at = a.until() == null ? now : a.until();
            first = first == null || at.isBefore(first) ? at : first;
        }
        return first;
    }

    private void skip(Candidate c, String reason, Instant until, boolean parked) {
        skipped.add(new FinalError.Skip(c.name(), c.position(), reason, until, parked));
    }

    private void releaseProbe() {
        Candidate c = inFlight;
        if (c != null && inFlightIsProbe) {
            ctx.health().of(c.target().connection()).releaseProbe();
        }
    }

    private void recordAttempt(Candidate c, int retry, Instant started, long startNanos, ProviderFailure f,
                               boolean afterCommit) {
        recordAttempt(c, retry, started, startNanos, f, afterCommit, false);
    }

    private synchronized void recordAttempt(Candidate c, int retry, Instant started, long startNanos, ProviderFailure f,
                                            boolean afterCommit, boolean abandoned) {
        attempts.add(new AttemptRecord(c.name(), c.target().connection(), c.target().provider(), c.target().model(),
                c.position(), retry, started, millisSince(startNanos), f == null ? null : f.kind(),
                f != null ? f.httpStatus() : abandoned && !afterCommit ? 0 : 200, f == null ? null : f.type(), f == null ? null : f.code(),
                f == null ? null : ctx.redactor().clean(f.message()), f == null ? null : f.retryAfter(), afterCommit, abandoned));
    }

    private synchronized RequestRecord save(boolean ok, int status, String code, ServedBy servedBy, boolean committed,
                                            Long firstTokenMillis, JsonObject usage, boolean degraded) {
        RequestRecord record = new RequestRecord(id, startedAt, ok, status, code, request.model(),
                resolution.routeName(), servedBy, attempts,
                skipped.stream().map(s -> new SkippedTarget(s.target(), s.position(), s.reason())).toList(),
                request.stream(), committed, firstTokenMillis,
                Duration.between(startedAt, ctx.clock().instant()).toMillis(), usage, degraded);
        try {
            ctx.store().save(record);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, id + ": the record store failed; the record is lost", e);
        }
        observe(() -> {
            ctx.observer().finished(record, admission);
            return null;
        });
        return record;
    }

    /** Runs an observer callback; an observer's bug never fails a request. */
    private <T> T observe(Supplier<T> callback) {
        try {
            return callback.get();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, id + ": an engine observer failed", e);
            return null;
        }
    }

    static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
