package dev.baton.impl.health;

import dev.baton.FailureKind;
import dev.baton.impl.config.HealthPolicy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The rotation state of one connection: ejection until a probe succeeds, parking for rate and
 * spend limits, and models the connection said it cannot serve.
 *
 * <pre>
 *              N consecutive counted failures
 *   HEALTHY ─────────────────────────────────▶ EJECTED (until the next probe is due)
 *      ▲                                         │ probe due: the prober (or, in request mode, one request) takes it
 *      │ success                                 ▼
 *      └───────────────────────────────────── PROBING ── counted failure ──▶ EJECTED (the wait doubled, capped)
 * </pre>
 *
 * Two probe modes ({@link HealthPolicy.Probe}). In {@code background} mode (the default) the engine's
 * prober claims the probe with {@link #startProbe()} when {@link #nextProbeAt()} comes, first after
 * {@code probe-interval}, then after each failed probe twice as long up to {@code max-probe-interval};
 * no user request is ever the probe. In {@code request} mode the first request after the cool-off
 * takes it with {@link #tryAcquire()}, and each failed probe doubles the cool-off up to {@code max-cool-off}.
 *
 * Parking is separate from ejection: a 429 parks for its Retry-After (30 s when absent, at most
 * 5 min) and never counts toward ejection; a spend limit parks for 15 min.
 *
 * <p>An operator can take a connection out ({@link #eject(Duration, String)}: the same EJECTED state,
 * ending in the same probing) and put it back ({@link #restore()}). An operator's ejection is
 * not undone by an attempt that was already in flight when it was made.
 *
 * <p>Thread-safe: every method takes the instance lock briefly; listeners are called after it is released.
 */
public final class ConnectionHealth {

    public static final Duration DEFAULT_PARK = Duration.ofSeconds(30);
    public static final Duration MAX_PARK = Duration.ofMinutes(5);
    public static final Duration SPEND_LIMIT_PARK = Duration.ofMinutes(15);
    public static final Duration MODEL_NOT_SERVED_PENALTY = Duration.ofMinutes(15);
    /** The longest an operator may take a connection out at once: longer is an outage, better fixed in configuration. */
    public static final Duration MAX_OPERATOR_EJECTION = Duration.ofHours(24);
    /** {@link Snapshot#ejectedBy()} of an ejection made by {@link #eject(Duration, String)}. */
    public static final String BY_OPERATOR = "operator";
    /** {@link Snapshot#ejectedBy()} of an ejection made by consecutive failures. */
    public static final String BY_FAILURES = "failures";
    /** The cause {@link HealthListener#ejected} is given for an operator's ejection. */
    public static final String OPERATOR_CAUSE = "operator";

    private enum State { HEALTHY, EJECTED, PROBING }

    private final String connection;
    private final HealthPolicy policy;
    private final InstantSource clock;
    private final HealthListener listener;

    private State state = State.HEALTHY;
    private int consecutiveFailures;
    private int consecutiveCredentialFailures;
    private Duration coolOff;
    /** Background mode: the wait before the next probe, doubled by each failed one. */
    private Duration probeInterval;
    private Instant ejectedUntil;
    /** When the connection last left rotation (ejected), or {@code null} while it is in. */
    private Instant outSince;
    private Instant parkedUntil;
    private String parkCause;
    /** Who ejected it ({@link #BY_FAILURES} or {@link #BY_OPERATOR}) and why; {@code null} while healthy. */
    private String ejectedBy;
    private String ejectReason;
    private final Map<String, Instant> notServedUntil = new HashMap<>();

    public ConnectionHealth(String connection, HealthPolicy policy, InstantSource clock, HealthListener listener) {
        this.connection = connection;
        this.policy = policy;
        this.clock = clock;
        this.listener = listener;
        this.coolOff = policy.coolOff();
        this.probeInterval = policy.probeInterval();
    }

    /** Whether the engine probes this connection in the background (else a user request is the probe). */
    public boolean probesInBackground() {
        return policy.probe() == HealthPolicy.Probe.BACKGROUND;
    }

    /** Whether a target of this connection with {@code model} may be attempted now. */
    public synchronized Availability availability(String model) {
        Instant now = clock.instant();
        Instant penalty = notServedUntil.get(model);
        boolean deprioritised = penalty != null && now.isBefore(penalty);
        if (state == State.PROBING) {
            return new Availability(Availability.State.PROBING, null, deprioritised);
        }
        if (state == State.EJECTED && probesInBackground()) {
            return new Availability(Availability.State.EJECTED, nextProbeAtLocked(now), deprioritised);
        }
        if (state == State.EJECTED) {
            return now.isBefore(ejectedUntil)
                    ? new Availability(Availability.State.EJECTED, ejectedUntil, deprioritised)
                    : new Availability(Availability.State.PROBE_DUE, null, deprioritised);
        }
        if (parkedUntil != null && now.isBefore(parkedUntil)) {
            return new Availability("spend_limit".equals(parkCause) ? Availability.State.SPENT : Availability.State.PARKED,
                    parkedUntil, deprioritised);
        }
        return new Availability(Availability.State.AVAILABLE, null, deprioritised);
    }

    /**
     * Lets a user request's attempt start. Returns {@code true} when the connection is healthy (no
     * probe needed) or, in request mode, when this caller took the one probe; {@code false} when it
     * is still ejected or a probe is in flight. In background mode a request never takes the probe.
     */
    public synchronized boolean tryAcquire() {
        if (state == State.HEALTHY) {
            return true;
        }
        if (!probesInBackground() && state == State.EJECTED && !clock.instant().isBefore(ejectedUntil)) {
            moveTo(State.PROBING);
            return true;
        }
        return false;
    }

    /** An attempt that took the probe ended without an outcome (cancelled): let the next request probe. */
    public synchronized void releaseProbe() {
        if (state == State.PROBING) {
            moveTo(State.EJECTED);
            ejectedUntil = clock.instant();
        }
    }

    /**
     * Background mode: when the next probe may start, or {@code null} when none is wanted (healthy,
     * a probe in flight, or request mode). Never before a parking's end: a provider's Retry-After is
     * honoured by probes too.
     */
    public synchronized Instant nextProbeAt() {
        return probesInBackground() && state == State.EJECTED ? nextProbeAtLocked(clock.instant()) : null;
    }

    private Instant nextProbeAtLocked(Instant now) {
        boolean parked = parkedUntil != null && now.isBefore(parkedUntil);
        return parked && parkedUntil.isAfter(ejectedUntil) ? parkedUntil : ejectedUntil;
    }

    /**
     * Background mode: claims the probe when it is due. Its outcome is reported like an attempt's,
     * through {@link #succeeded()} or {@link #failed}; a probe that could not be sent goes back
     * through {@link #probeNotSent(Duration)}.
     *
     * @return {@code true} when the caller now owns the probe
     */
    public synchronized boolean startProbe() {
        Instant now = clock.instant();
        if (!probesInBackground() || state != State.EJECTED || now.isBefore(nextProbeAtLocked(now))) {
            return false;
        }
        moveTo(State.PROBING);
        return true;
    }

    /**
     * Background mode: the probe was not sent (the connection's own limits refused it, or it was
     * cancelled): still ejected, the next probe after {@code retryIn}, the interval unchanged.
     */
    public synchronized void probeNotSent(Duration retryIn) {
        if (state == State.PROBING) {
            moveTo(State.EJECTED);
            ejectedUntil = clock.instant().plus(retryIn);
        }
    }

    public void succeeded() {
        boolean restored;
        synchronized (this) {
            if (state == State.EJECTED && BY_OPERATOR.equals(ejectedBy) && clock.instant().isBefore(ejectedUntil)) {
                return; // an attempt that started before the operator's ejection must not undo it
            }
            restored = state != State.HEALTHY;
            backInRotation();
        }
        if (restored) {
            listener.restored(connection);
        }
    }

    /** Healthy, no failures counted, the first cool-off again. Called holding the lock. */
    private void backInRotation() {
        moveTo(State.HEALTHY);
        consecutiveFailures = 0;
        consecutiveCredentialFailures = 0;
        coolOff = policy.coolOff();
        probeInterval = policy.probeInterval();
        ejectedBy = null;
        ejectReason = null;
    }

    /**
     * An operator takes the connection out of rotation for {@code duration}; then it is probed as
     * after any ejection (the first background probe, or the next request, comes when it ends). A
     * probe in flight no longer decides anything. The cool-off and probe interval are left as they
     * are: they are what the connection has earned by its own failures.
     *
     * @throws IllegalArgumentException when {@code duration} is not positive or longer than {@link #MAX_OPERATOR_EJECTION}
     */
    public void eject(Duration duration, String reason) {
        if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_OPERATOR_EJECTION) > 0) {
            throw new IllegalArgumentException("an operator's ejection must last more than 0 and at most "
                    + MAX_OPERATOR_EJECTION + " but was " + duration);
        }
        synchronized (this) {
            moveTo(State.EJECTED);
            ejectedUntil = clock.instant().plus(duration);
            ejectedBy = BY_OPERATOR;
            ejectReason = reason;
        }
        listener.ejected(connection, duration, OPERATOR_CAUSE);
    }

    /**
     * An operator puts the connection back in rotation now: no ejection, no parking, no model
     * penalties, no counted failures, and the first cool-off again. Reported as a restoration when
     * it was out of rotation in any way.
     */
    public void restore() {
        boolean wasOut;
        synchronized (this) {
            Instant now = clock.instant();
            wasOut = state != State.HEALTHY || (parkedUntil != null && now.isBefore(parkedUntil));
            backInRotation();
            parkedUntil = null;
            parkCause = null;
            notServedUntil.clear();
        }
        if (wasOut) {
            listener.restored(connection);
        }
    }

    /** Applies a failed attempt's consequences for the connection. */
    public void failed(FailureKind kind, Duration retryAfter, String model) {
        Instant now = clock.instant();
        switch (kind) {
            case RATE_LIMIT -> park(now, clamp(retryAfter == null ? DEFAULT_PARK : retryAfter), "rate_limit");
            case SPEND_LIMIT -> park(now, SPEND_LIMIT_PARK, "spend_limit");
            case MODEL_NOT_SERVED -> {
                synchronized (this) {
                    notServedUntil.put(model, now.plus(MODEL_NOT_SERVED_PENALTY));
                }
                answeredCoherently();
            }
            case MODERATION, INVALID_REQUEST -> answeredCoherently();
            case CONNECTION, TIMEOUT, SERVER_ERROR, CREDENTIAL -> counted(now, kind);
        }
    }

    private void counted(Instant now, FailureKind kind) {
        Duration ejectedFor = null;
        synchronized (this) {
            consecutiveFailures++;
            consecutiveCredentialFailures = kind == FailureKind.CREDENTIAL ? consecutiveCredentialFailures + 1 : 0;
            if (state == State.PROBING && probesInBackground()) {
                // Still out, not a new ejection: the prober counts and logs its probes itself.
                probeInterval = min(probeInterval.multipliedBy(2), policy.maxProbeInterval());
                eject(now, kind);
            } else if (state == State.PROBING) {
                coolOff = min(coolOff.multipliedBy(2), policy.maxCoolOff());
                ejectedFor = eject(now, kind);
            } else if (state == State.HEALTHY && (consecutiveFailures >= policy.ejectAfter()
                    || consecutiveCredentialFailures >= policy.ejectAfterCredential())) {
                ejectedFor = eject(now, kind);
            }
            // Failures of attempts that started before an ejection do not extend it.
        }
        if (ejectedFor != null) {
            listener.ejected(connection, ejectedFor, kind.wireName());
        }
    }

    /** Out until the next probe is due; returns how long that is. */
    private Duration eject(Instant now, FailureKind kind) {
        Duration out = probesInBackground() ? probeInterval : coolOff;
        moveTo(State.EJECTED);
        ejectedUntil = now.plus(out);
        ejectedBy = BY_FAILURES;
        ejectReason = kind.wireName();
        return out;
    }

    /** A provider that answers with a proper refusal is up: a probe that gets one restores the connection. */
    private void answeredCoherently() {
        boolean probing;
        synchronized (this) {
            probing = state == State.PROBING;
        }
        if (probing) {
            succeeded();
        }
    }

    private void park(Instant now, Duration duration, String cause) {
        Instant until = now.plus(duration);
        synchronized (this) {
            if (parkedUntil != null && parkedUntil.isAfter(until)) {
                return;
            }
            parkedUntil = until;
            parkCause = cause;
        }
        answeredCoherently();
        listener.parked(connection, until, cause);
    }

    private static Duration clamp(Duration retryAfter) {
        return retryAfter.isNegative() ? Duration.ZERO : min(retryAfter, MAX_PARK);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * What other nodes of a cluster are told after a change: the ejection (with its wait) and the
     * parking. Counts of failures stay each node's own.
     */
    public synchronized Shared shared() {
        boolean out = state != State.HEALTHY;
        return new Shared(out ? "ejected" : "healthy", out ? ejectedUntil : null, out ? ejectedBy : null,
                out ? ejectReason : null, probeInterval, coolOff, parkedUntil, parkedUntil == null ? null : parkCause);
    }

    /**
     * Takes another node's view of this connection (see {@code dev.baton.impl.cluster}): its
     * ejection or return to rotation, and its parking, replace this node's. Listeners are told of what
     * changed, as for a change of this node's own, except that a connection ejected again by another
     * node's failed probe is not reported as a new ejection.
     *
     * @return {@code true} when the connection is still out but its next probe moved, which the caller passes on to
     *         the prober
     */
    public boolean adopt(Shared other) {
        boolean ejected = false;
        boolean restored = false;
        boolean moved = false;
        boolean parked = false;
        synchronized (this) {
            boolean wasOut = state != State.HEALTHY;
            if ("ejected".equals(other.state()) && other.ejectedUntil() != null) {
                moved = wasOut && !other.ejectedUntil().equals(ejectedUntil);
                ejected = !wasOut;
                moveTo(State.EJECTED);
                ejectedUntil = other.ejectedUntil();
                ejectedBy = other.ejectedBy();
                ejectReason = other.ejectReason();
                probeInterval = other.probeInterval() != null ? other.probeInterval() : probeInterval;
                coolOff = other.coolOff() != null ? other.coolOff() : coolOff;
            } else if ("healthy".equals(other.state()) && wasOut) {
                backInRotation();
                restored = true;
            }
            parked = other.parkedUntil() != null && !other.parkedUntil().equals(parkedUntil)
                    && clock.instant().isBefore(other.parkedUntil());
            parkedUntil = other.parkedUntil();
            parkCause = other.parkCause();
        }
        if (ejected) {
            listener.ejected(connection, Duration.between(clock.instant(), other.ejectedUntil()),
                    BY_OPERATOR.equals(other.ejectedBy()) ? OPERATOR_CAUSE : other.ejectReason());
        }
        if (restored) {
            listener.restored(connection);
        }
        if (parked) {
            listener.parked(connection, other.parkedUntil(), other.parkCause());
        }
        return moved;
    }

    /**
     * The part of a connection's health a cluster shares (see {@link #shared()}).
     *
     * @param state         {@code healthy} or {@code ejected} (a probe in flight counts as ejected)
     * @param ejectedUntil  when the next probe is due; {@code null} when healthy
     * @param ejectedBy     {@code failures} or {@code operator}; {@code null} when healthy
     * @param ejectReason   the failure kind or the operator's reason; {@code null} when healthy
     * @param probeInterval background mode: the wait after the next failed probe
     * @param coolOff       request mode: the next ejection's length
     * @param parkedUntil   when the last parking ends (possibly past), or {@code null}
     * @param parkCause     {@code rate_limit} or {@code spend_limit}, or {@code null}
     */
    public record Shared(String state, Instant ejectedUntil, String ejectedBy, String ejectReason,
                         Duration probeInterval, Duration coolOff, Instant parkedUntil, String parkCause) {
    }

    /** A consistent view for status endpoints, metrics and tests. */
    /** Moves the state machine, noting when the connection left rotation: the first thing an operator asks. */
    private void moveTo(State next) {
        if (next == State.HEALTHY) {
            outSince = null;
        } else if (state == State.HEALTHY) {
            outSince = clock.instant();
        }
        state = next;
    }

    public synchronized Snapshot snapshot() {
        Instant now = clock.instant();
        boolean parked = parkedUntil != null && now.isBefore(parkedUntil);
        boolean background = probesInBackground();
        String rotation = switch (state) {
            case PROBING -> "probing";
            case EJECTED -> background || now.isBefore(ejectedUntil) ? "ejected" : "probe_due";
            case HEALTHY -> parked ? "parked" : "healthy";
        };
        boolean out = state != State.HEALTHY;
        Instant probeDue = state != State.EJECTED ? null : background ? nextProbeAtLocked(now) : ejectedUntil;
        return new Snapshot(connection, rotation, state.name().toLowerCase(Locale.ROOT), out ? ejectedUntil : null,
                probeDue, out ? ejectedBy : null, out ? ejectReason : null,
                parked ? parkedUntil : null, parked ? parkCause : null, consecutiveFailures, coolOff,
                policy.probe().wireName(), probeInterval, out ? outSince : null);
    }

    /**
     * One connection's health at one instant.
     *
     * @param connection          the connection's name
     * @param rotation            what the planner sees: {@code healthy}, {@code parked}, {@code ejected},
     *                            {@code probe_due} (request mode: cool-off over, the next request probes) or
     *                            {@code probing}
     * @param state               the ejection state machine alone: {@code healthy}, {@code ejected} or
     *                            {@code probing} (parking is not part of it)
     * @param ejectedUntil        when the ejection ends, or {@code null} when healthy
     * @param probeDueAt          when the next probe may start (by the prober in background mode, by a request in
     *                            request mode), or {@code null} unless ejected or probe_due
     * @param ejectedBy           {@code failures} or {@code operator}, or {@code null} when healthy
     * @param ejectReason         the failure kind that ejected it, or the operator's reason; {@code null} when healthy
     * @param parkedUntil         when the parking ends, or {@code null} when not parked
     * @param parkCause           {@code rate_limit} or {@code spend_limit}, or {@code null} when not parked
     * @param consecutiveFailures counted failures in a row
     * @param coolOff             request mode: the length of the next ejection by failures
     * @param probe               {@code background} or {@code request}: who probes it when ejected
     * @param probeInterval       background mode: the wait before the next probe after a failed one
     * @param outSince            when it left rotation (ejected), or {@code null} while in rotation; on a node that
     *                            learned the ejection from the cluster, when it learned it
     */
    public record Snapshot(String connection, String rotation, String state, Instant ejectedUntil, Instant probeDueAt,
                           String ejectedBy, String ejectReason, Instant parkedUntil, String parkCause,
                           int consecutiveFailures, Duration coolOff, String probe, Duration probeInterval,
                           Instant outSince) {
    }
}
