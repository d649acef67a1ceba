package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.budget.Hold;
import dev.baton.impl.budget.Tab;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.config.RoutePolicy;
import dev.baton.impl.engine.AttemptMode.Failed;
import dev.baton.impl.engine.AttemptMode.Outcome;
import dev.baton.impl.engine.AttemptMode.Served;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.limits.ConnectionGuards;
import dev.baton.impl.log.RateLimitedLog;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One request through the pipeline, after admit: plan, then repeat { gate → attempt → classify →
 * decide } until a target serves or the decision is to stop, then answer and record. How an attempt
 * runs and how the answer reaches the caller is the {@link AttemptMode}'s business.
 *
 * <p>Attempts run one after another, so the loop's state is touched by one thread at a time; the
 * hand-offs (HTTP client callbacks, the scheduler) order those accesses. A caller's cancel races
 * only with the attempt in flight and the {@code finished} flag, both atomic. One instance per request.
 */
final class FailoverLoop {

    private static final System.Logger LOG = System.getLogger(FailoverLoop.class.getName());
    /** In an outage every request fails at once: one line every 10 s, with the count, not one per request. */
    private static final RateLimitedLog UNSERVED = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);

    private final EngineContext ctx;
    private final ChatRequest request;
    private final Resolution resolution;
    private final String id;
    private final AttemptMode mode;
    private final Exchange exchange;
    private final Ledger ledger;
    /** The call's spend against its budgets, or {@code null} when none applies. */
    private final Tab tab;
    /** The deadline on the ticker: wall-clock jumps must not stretch or cut it. */
    private final long deadlineNanos;
    private final AtomicReference<Attempt> inFlight = new AtomicReference<>();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile CompletableFuture<Void> attemptPermit;
    private Chain chain;

    /**
     * @param caller   the named gateway key that sent the request, for its record and metrics; or {@code null}
     * @param exchange what an attempt sends for the request's API
     */
    FailoverLoop(EngineContext ctx, ChatRequest request, Resolution resolution, String id, AttemptMode mode,
                 String caller, Exchange exchange) {
        this.ctx = ctx;
        this.exchange = exchange;
        this.tab = ctx.spending().open(caller, resolution.routeName(), request,
                exchange.api() == Api.CHAT);
        this.request = tab == null ? request : tab.request();
        this.resolution = resolution;
        this.id = id;
        this.mode = mode;
        this.ledger = new Ledger(ctx, request, resolution.routeName(), id, caller);
        Duration total = request.timeout().filter(t -> t.compareTo(policy().deadline()) < 0).orElse(policy().deadline());
        this.deadlineNanos = ctx.ticker().nanos() + total.toNanos();
    }

    /** Plans the chain and runs it; called once, when the caller is ready for the answer. */
    void start() {
        Planner.Plan plan = Planner.plan(resolution.candidates(), request.body(), ctx.config(), ctx.health(),
                ctx.balancer(), policy().balance(), Planner.sessionKey(request));
        plan.skipped().forEach(ledger::skipped);
        chain = new Chain(plan.order(), ctx.health());
        if (tab == null) {
            next();
            return;
        }
        // Held for the dearest target the plan may reach: at most one attempt of a call is ever charged.
        tab.open(plan.order().stream().map(Candidate::model).toList())
                .whenComplete((refused, error) -> resume(error, () -> {
                    if (refused == null) {
                        next();
                    } else {
                        refuse(refused);
                    }
                }));
    }

    /** The gate, target after target, until an attempt starts, a wait begins or the plan runs out. */
    private void next() {
        while (!finished.get()) {
            Candidate c = chain.next();
            if (c == null) {
                answerFailure(null, null);
                return;
            }
            Gate.Verdict verdict = Gate.check(c, chain.availability(c), chain.history(c), ctx.clock().instant(),
                    remaining(), policy().maxWait(), chain.queued(), chain::usableNow);
            if (verdict instanceof Gate.Start start) {
                if (!health(c).tryAcquire()) {
                    skip(c, Gate.PROBING, null, false);
                } else if (launch(new Attempt(c, 0, start.probe(), ctx.clock().instant(), ctx.ticker().nanos()))) {
                    return;
                }
            } else if (verdict instanceof Gate.Skip skip) {
                skip(c, skip.reason(), skip.until(), skip.parked());
            } else if (verdict instanceof Gate.Defer) {
                chain.defer(c);
            } else if (verdict instanceof Gate.Wait wait) {
                chain.waitingFor(c);
                later(wait.duration(), () -> {
                    chain.resume(c);
                    next();
                });
                return;
            }
        }
    }

    /**
     * Starts the attempt once its connection's budget holds its worst case, when the connection has one: a
     * connection that cannot take it is skipped until its budget resets, and the chain goes on.
     *
     * @return {@code false} when the attempt did not start and the caller goes on with the chain; {@code true} when
     * it started or the budget's answer will start it (or go on) later
     */
    private boolean launch(Attempt attempt) {
        if (tab == null) {
            return begin(attempt);
        }
        Candidate c = attempt.candidate();
        tab.beginAttempt(c.target().connection(), c.model()).whenComplete((refused, error) -> resume(error,
                () -> {
                    if (refused == null && !finished.get() && begin(attempt)) {
                        return;
                    }
                    tab.endAttempt(null, false, false); // not sent: nothing billed
                    if (refused != null || finished.get()) {
                        releaseProbe(attempt); // (begin releases it itself when the local limits refuse)
                    }
                    if (refused != null) {
                        skip(c, Tab.skipReason(refused), refused.resetAt(), true);
                    }
                    if (!finished.get()) {
                        next();
                    }
                }));
        return true;
    }

    /** Starts the attempt within its connection's local limits; {@code false} when they refused it. */
    private boolean begin(Attempt attempt) {
        Candidate c = attempt.candidate();
        CompletableFuture<Void> permit = new CompletableFuture<>();
        attemptPermit = permit;
        inFlight.set(attempt);
        ConnectionGuards.Refusal refused = ctx.guards().tryStart(c.target().connection(), () -> run(attempt), permit);
        if (refused == null) {
            return true;
        }
        // Our own limit, not the provider's doing: health is untouched and the chain moves on.
        inFlight.set(null);
        releaseProbe(attempt);
        Instant until = refused.retryAfter() == null ? null : ctx.clock().instant().plus(refused.retryAfter());
        skip(c, refused.reason(), until, until != null);
        return false;
    }

    private void run(Attempt attempt) {
        ctx.balancer().started(attempt.candidate().name());
        ledger.observe(() -> {
            ctx.observer().attemptStarted(id, attempt.candidate().name());
            return null;
        });
        try {
            Duration left = remaining();
            mode.run(attempt, policy().attemptTimeout().compareTo(left) <= 0 ? policy().attemptTimeout() : left);
        } catch (RuntimeException e) {
            // An adapter that throws instead of failing its future is a bug; keep the request alive.
            // Its message is the adapter's own: it could quote a header, so it is logged redacted, without causes.
            RuntimeException shown = new RuntimeException(ctx.redactor().clean(e.toString()));
            shown.setStackTrace(e.getStackTrace());
            LOG.log(Level.ERROR, "adapter " + attempt.candidate().target().provider() + " threw", shown);
            ended(attempt, Failed.beforeCommit(ProviderFailure.transport(FailureKind.CONNECTION,
                    "the adapter failed: " + e.getClass().getSimpleName())));
        }
    }

    /** An attempt ended, classified by its adapter: health and record, then the decision. */
    void ended(Attempt attempt, Outcome outcome) {
        if (!inFlight.compareAndSet(attempt, null)) {
            return; // the caller went away first: recorded as abandoned
        }
        attemptPermit.complete(null);
        Candidate c = attempt.candidate();
        ProviderFailure failure = outcome instanceof Failed f ? f.failure() : null;
        if (failure == null) {
            health(c).succeeded();
        } else {
            health(c).failed(failure.kind(), failure.retryAfter(), c.target().model());
        }
        ctx.balancer().ended(c.name(), failure == null ? null : failure.kind(), servedIn(attempt, outcome));
        recordAttempt(attempt, failure, failure != null && outcome.committed(), false);
        Cost cost = outcome instanceof Served served ? costOf(c, served.usage()) : null;
        if (tab != null) {
            tab.endAttempt(cost, failure == null, outcome.committed());
        }
        if (outcome instanceof Served served) {
            answerServed(attempt, served, cost);
            return;
        }
        chain.learn(c, failure.kind());
        RoutePolicy policy = policy();
        Decision decision = Decision.afterFailure(outcome.committed(), failure.kind(), policy.action(failure.kind()),
                attempt.retry(), policy.sameTargetRetries(), failure.retryAfter(), Backoff.fullJitter(policy.retryBackoff(),
                        policy.retryBackoffMax(), attempt.retry(), ctx.random()), policy.maxWait(), remaining(),
                chain.sameModelLeft(c));
        switch (decision.step()) {
            case STOP -> answerFailure(attempt, (Failed) outcome);
            case NEXT -> next();
            case RETRY_SAME -> retry(attempt, decision.delay());
        }
    }

    /** The same target again after {@code delay}, when the retry budget allows; else the next target. */
    private void retry(Attempt failed, Duration delay) {
        if (!ctx.budget().tryWithdraw()) {
            LOG.log(Level.DEBUG, "{0}: retry budget spent, failing over instead of retrying {1}", id,
                    failed.candidate().name());
            ledger.observe(() -> {
                ctx.observer().retryRefused(id, failed.candidate().target().connection());
                return null;
            });
            next();
            return;
        }
        later(delay, () -> {
            if (finished.get()) {
                return;
            }
            // The failure may have ejected it (a failed probe, or the Nth failure in a row).
            if (remaining().compareTo(Decision.MIN_ATTEMPT) < 0 || !health(failed.candidate()).tryAcquire()
                    || !launch(failed.retried(ctx.clock().instant(), ctx.ticker().nanos()))) {
                next();
            }
        });
    }

    /** Answer and record: what the target served. */
    private void answerServed(Attempt attempt, Served served, Cost cost) {
        if (finished.compareAndSet(false, true)) {
            closeTab();
            ledger.save(Ledger.Ending.served(servedBy(attempt.candidate()), served, cost));
            mode.served(attempt, cost);
        }
    }

    /**
     * Answer and record: the one most useful error, or (after the commit point) the stream's
     * interruption; the policy's degraded text instead, where the mode and the error allow it.
     *
     * @param last the attempt the decision stopped at, or {@code null} when the plan ran out
     */
    private void answerFailure(Attempt last, Failed failed) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        closeTab();
        if (failed != null && failed.committed()) {
            Candidate c = last.candidate();
            var record = ledger.save(Ledger.Ending.interrupted(servedBy(c), failed.interruption(),
                    failed.firstTokenMillis()));
            // The caller reads this: the account's identifiers are masked (the record keeps them).
            mode.failed(StreamInterruptedException.of(Redactor.maskAccounts(ctx.redactor().clean("The stream from "
                    + c.name() + " broke after output had been sent: " + failed.failure().message())),
                    failed.interruption(), record));
            return;
        }
        FailureKind stoppedBy = failed == null ? null : failed.failure().kind();
        chain.drain().forEach(c -> skip(c, "not tried: the request stopped at a " + (stoppedBy == null ? "failure"
                : stoppedBy.wireName()) + " failure", null, false));
        Instant now = ctx.clock().instant();
        var attempts = ledger.attempts();
        var skipped = ledger.skips();
        FinalError error = FinalError.choose(attempts, skipped, stoppedBy, now, chain.usableAgain(now));
        String message = ctx.redactor().clean(error.message(attempts, skipped));
        String degradedText = policy().degraded();
        boolean degrade = degradedText != null && error.degradable() && mode.answersDegraded();
        var record = ledger.save(Ledger.Ending.unserved(error.status(), error.code(), degrade));
        UNSERVED.info(n -> id + ": no target served " + request.model() + ": " + error.status() + " " + error.code()
                + (degrade ? "; answered with the degraded text" : "")
                + (n > 1 ? " (" + n + " requests not served since the last such message)" : ""));
        UpstreamFailedException failure = error.toException(message, record);
        if (degrade) {
            mode.degraded(degradedText, failure);
        } else {
            mode.failed(failure);
        }
    }

    /**
     * The caller went away: the attempt in flight is recorded as abandoned (health is untouched: the
     * provider did nothing wrong) and the request as 499, and the mode aborts the exchange.
     *
     * @param firstTokenMillis when output reached the caller, or {@code null} when none had
     */
    void abandon(Long firstTokenMillis) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        boolean committed = firstTokenMillis != null;
        Attempt attempt = inFlight.getAndSet(null);
        if (attempt != null) {
            ctx.balancer().abandoned(attempt.candidate().name());
            releaseProbe(attempt);
            attemptPermit.complete(null);
            recordAttempt(attempt, null, committed, true);
            if (tab != null) {
                tab.endAttempt(null, false, committed);
            }
        }
        closeTab();
        ledger.save(Ledger.Ending.abandoned(committed && attempt != null ? servedBy(attempt.candidate()) : null,
                firstTokenMillis));
        mode.abort();
    }

    /** Answer and record: a budget cannot take what the call may cost (402), before any provider was asked. */
    private void refuse(Hold.Refused refused) {
        if (finished.compareAndSet(false, true)) {
            closeTab();
            var record = ledger.save(Ledger.Ending.unserved(402, "budget_exceeded", false));
            mode.failed(Tab.refusal(refused, ctx.clock().instant(), record));
        }
    }

    private void closeTab() {
        if (tab != null) {
            tab.close();
        }
    }

    /**
     * Goes on with the call after a budget's answer (on whichever thread gave it), with {@link #later}'s care: an
     * unexpected failure still answers the caller.
     */
    private void resume(Throwable error, Runnable action) {
        try {
            if (error != null) {
                throw new IllegalStateException("the spend ledger failed", error);
            }
            action.run();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, id + ": internal error", e);
            answerFailure(null, null);
        }
    }

    // What the modes read.

    /** Whether the caller did not ask for the usage chunk a budget asked for, so that it is kept from the caller. */
    boolean hidesUsage() {
        return tab != null && tab.hidesUsage();
    }

    String id() {
        return id;
    }

    ChatRequest request() {
        return request;
    }

    Exchange exchange() {
        return exchange;
    }

    EngineContext ctx() {
        return ctx;
    }

    RoutePolicy policy() {
        return resolution.policy();
    }

    ServedBy servedBy(Candidate c) {
        return new ServedBy(c.model(), c.target().provider(), c.target().connection(), c.position(),
                resolution.routeName());
    }

    /**
     * The estimated cost of {@code usage} at the rate of the model that served it (a fallback bills its own rate), or
     * {@code null} when the model is unpriced or there is no usage.
     */
    Cost costOf(Candidate c, JsonObject usage) {
        return usage == null ? null : ctx.config().price(c.model()).map(p -> p.cost(usage)).orElse(null);
    }

    /** Milliseconds from admission to now, for first-token times. */
    long sinceStart() {
        return Duration.between(ledger.startedAt(), ctx.clock().instant()).toMillis();
    }

    /** Runs {@code action} after {@code delay}; an unexpected failure still answers the caller. */
    Scheduler.Scheduled later(Duration delay, Runnable action) {
        return ctx.scheduler().schedule(delay, () -> {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, id + ": internal error", e);
                answerFailure(null, null);
            }
        });
    }

    /**
     * How long the attempt took to serve, for the balancer's latency: a whole answer's time, or a
     * stream's time to its first output (a stream's length says more about the answer than the target).
     */
    private long servedIn(Attempt attempt, Outcome outcome) {
        long total = ctx.ticker().nanos() - attempt.startNanos();
        if (outcome.committed() && outcome.firstTokenMillis() != null) {
            long offset = Duration.between(ledger.startedAt(), attempt.startedAt()).toNanos();
            long first = TimeUnit.MILLISECONDS.toNanos(outcome.firstTokenMillis()) - offset;
            return Math.max(0, Math.min(total, first));
        }
        return total;
    }

    private Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - ctx.ticker().nanos()));
    }

    private ConnectionHealth health(Candidate c) {
        return ctx.health().of(c.target().connection());
    }

    private void releaseProbe(Attempt attempt) {
        if (attempt.probe()) {
            health(attempt.candidate()).releaseProbe();
        }
    }

    private void skip(Candidate c, String reason, Instant until, boolean parked) {
        ledger.skipped(new FinalError.Skip(c.name(), c.position(), reason, until, parked));
    }

    private void recordAttempt(Attempt attempt, ProviderFailure failure, boolean afterCommit, boolean abandoned) {
        long latencyMillis = TimeUnit.NANOSECONDS.toMillis(ctx.ticker().nanos() - attempt.startNanos());
        var record = attempt.toRecord(latencyMillis, failure, afterCommit, abandoned, ctx.redactor());
        ledger.attempted(record);
        ledger.observe(() -> {
            ctx.observer().attemptEnded(id, record);
            return null;
        });
    }
}
