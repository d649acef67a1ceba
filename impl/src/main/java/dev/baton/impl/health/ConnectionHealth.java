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
 * The rotation state of one connection: ejection with a growing cool-off and a single half-open
 * probe, parking for rate and spend limits, and models the connection said it cannot serve.
 *
 * <pre>
 *              N consecutive counted failures
 *   HEALTHY ─────────────────────────────────▶ EJECTED (until now + coolOff)
 *      ▲                                         │ cool-off over, one request takes the probe
 *      │ success                                 ▼
 *      └───────────────────────────────────── PROBING ── counted failure ──▶ EJECTED (coolOff × 2, capped)
 * </pre>
 *
 * Parking is separate from ejection: a 429 parks for its Retry-After (30 s when absent, at most
 * 5 min) and never counts toward ejection; a spend limit parks for 15 min.
 *
 * <p>An operator can take a connection out ({@link #eject(Duration, String)}: the same EJECTED state,
 * ending in the same single probe) and put it back ({@link #restore()}). An operator's ejection is
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
    private Instant ejectedUntil;
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
    }

    /** Whether a target of this connection with {@code model} may be attempted now. */
    public synchronized Availability availability(String model) {
        Instant now = clock.instant();
        Instant penalty = notServedUntil.get(model);
        boolean deprioritised = penalty != null && now.isBefore(penalty);
        if (state == State.PROBING) {
            return new Availability(Availability.State.PROBING, null, deprioritised);
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
     * Claims the half-open probe. Returns {@code true} when the connection is healthy (no probe
     * needed) or when this caller took the one probe; {@code false} when it is still ejected or
     * another probe is in flight.
     */
    public synchronized boolean tryAcquire() {
        if (state == State.HEALTHY) {
            return true;
        }
        if (state == State.EJECTED && !clock.instant().isBefore(ejectedUntil)) {
            state = State.PROBING;
            return true;
        }
        return false;
    }

    /** An attempt that took the probe ended without an outcome (cancelled): let the next request probe. */
    public synchronized void releaseProbe() {
        if (state == State.PROBING) {
            state = State.EJECTED;
            ejectedUntil = clock.instant();
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
        state = State.HEALTHY;
        consecutiveFailures = 0;
        consecutiveCredentialFailures = 0;
        coolOff = policy.coolOff();
        ejectedBy = null;
        ejectReason = null;
    }

    /**
     * An operator takes the connection out of rotation for {@code duration}; then, as after any
     * ejection, the next request takes the one probe. A probe in flight no longer decides anything.
     * The cool-off is left as it is: it is what the connection has earned by its own failures.
     *
     * @throws IllegalArgumentException when {@code duration} is not positive or longer than {@link #MAX_OPERATOR_EJECTION}
     */
    public void eject(Duration duration, String reason) {
        if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_OPERATOR_EJECTION) > 0) {
            throw new IllegalArgumentException("an operator's ejection must last more than 0 and at most "
                    + MAX_OPERATOR_EJECTION + " but was " + duration);
        }
        synchronized (this) {
            state = State.EJECTED;
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
            if (state == State.PROBING) {
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

    private Duration eject(Instant now, FailureKind kind) {
        state = State.EJECTED;
        ejectedUntil = now.plus(coolOff);
        ejectedBy = BY_FAILURES;
        ejectReason = kind.wireName();
        return coolOff;
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

    /** A consistent view for status endpoints, metrics and tests. */
    public synchronized Snapshot snapshot() {
        Instant now = clock.instant();
        boolean parked = parkedUntil != null && now.isBefore(parkedUntil);
        String rotation = switch (state) {
            case PROBING -> "probing";
            case EJECTED -> now.isBefore(ejectedUntil) ? "ejected" : "probe_due";
            case HEALTHY -> parked ? "parked" : "healthy";
        };
        boolean out = state != State.HEALTHY;
        return new Snapshot(connection, rotation, state.name().toLowerCase(Locale.ROOT), out ? ejectedUntil : null,
                state == State.EJECTED ? ejectedUntil : null, out ? ejectedBy : null, out ? ejectReason : null,
                parked ? parkedUntil : null, parked ? parkCause : null, consecutiveFailures, coolOff);
    }

    /**
     * One connection's health at one instant.
     *
     * @param connection          the connection's name
     * @param rotation            what the planner sees: {@code healthy}, {@code parked}, {@code ejected},
     *                            {@code probe_due} (cool-off over, the next request probes) or {@code probing}
     * @param state               the ejection state machine alone: {@code healthy}, {@code ejected} or
     *                            {@code probing} (parking is not part of it)
     * @param ejectedUntil        when the ejection ends, or {@code null} when healthy
     * @param probeDueAt          when the next request may probe, or {@code null} unless ejected or probe_due
     * @param ejectedBy           {@code failures} or {@code operator}, or {@code null} when healthy
     * @param ejectReason         the failure kind that ejected it, or the operator's reason; {@code null} when healthy
     * @param parkedUntil         when the parking ends, or {@code null} when not parked
     * @param parkCause           {@code rate_limit} or {@code spend_limit}, or {@code null} when not parked
     * @param consecutiveFailures counted failures in a row
     * @param coolOff             the length of the next ejection by failures
     */
    public record Snapshot(String connection, String rotation, String state, Instant ejectedUntil, Instant probeDueAt,
                           String ejectedBy, String ejectReason, Instant parkedUntil, String parkCause,
                           int consecutiveFailures, Duration coolOff) {
    }
}
