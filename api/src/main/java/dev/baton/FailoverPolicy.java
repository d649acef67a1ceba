package dev.baton;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Overrides, for the calls it covers, the policy a route (or {@code baton.defaults}) configures.
 * Every member left at its default keeps the configured value, so an annotation states only what
 * differs. Put it
 *
 * <ul>
 *   <li>on a {@link FailoverChatService} injection point: it covers every call made through that
 *       injected service;</li>
 *   <li>on a CDI bean's or EJB's business method, or on its class: it covers every call to any
 *       {@link FailoverChatService} made on the thread that runs the method, while it runs. Work
 *       the method hands to another thread is not covered.</li>
 * </ul>
 *
 * <p>Only the nearest annotation counts, as a whole: a method's over its class's, and either
 * over the injection point's. Values are read and checked when the application deploys; a value
 * out of range, a model no connection serves, or {@code retry} for a kind that a retry cannot help
 * fails the deployment with a message naming the annotation or config key.
 *
 * <p>Like MicroProfile Fault Tolerance, any member can be overridden from MicroProfile Config,
 * the first key found winning:
 * <ol>
 *   <li>{@code <class>/<member>/FailoverPolicy/<param>}, where {@code <member>} is the annotated
 *       method or the injected field (or the method whose parameter is injected);</li>
 *   <li>{@code <class>/FailoverPolicy/<param>};</li>
 *   <li>{@code FailoverPolicy/<param>}, for every annotation in the application.</li>
 * </ol>
 * {@code <class>} is the fully qualified class name and {@code <param>} the member's name.
 * {@code FailoverPolicy/enabled=false} (or the same key in the two narrower forms) turns the
 * annotations off, leaving the configured route policies in force. Durations are written as in
 * Baton's configuration: {@code 250ms}, {@code 10s}, {@code 2m}, {@code PT10S}. Actions are
 * {@code retry}, {@code failover} or {@code stop}.
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})
public @interface FailoverPolicy {

    /** The whole request, every attempt and wait included. A duration, 1ms–1h. Empty: the route's (60s unless configured). */
    @Nonbinding
    String deadline() default "";

    /** One attempt, until response headers. A duration, 1ms–1h. Empty: the route's (30s unless configured). */
    @Nonbinding
    String attemptTimeout() default "";

    /** Streams: from an attempt's start to its first output. A duration, 1ms–1h. Empty: the route's (10s unless configured). */
    @Nonbinding
    String firstTokenTimeout() default "";

    /** Streams: the longest silence between two events. A duration, 1ms–1h. Empty: the route's (30s unless configured). */
    @Nonbinding
    String streamIdleTimeout() default "";

    /** Retries on the same target for kinds whose action is {@code retry}, 0–3. {@code -1}: the route's (1 unless configured). */
    @Nonbinding
    int sameTargetRetries() default -1;

    /** The full-jitter backoff base. A duration, 0–1m. Empty: the route's (200ms unless configured). */
    @Nonbinding
    String retryBackoff() default "";

    /** The full-jitter backoff cap. A duration, 0–5m. Empty: the route's (2s unless configured). */
    @Nonbinding
    String retryBackoffMax() default "";

    /**
     * The longest the request waits for a provider's Retry-After or for a rate-limited target to
     * come back before trying it again; a longer wait is never taken (the request moves on, or fails
     * at once with a Retry-After). An ejected target is never waited for; the jittered backoff has
     * its own cap ({@link #retryBackoffMax()}). A duration, 0–1m. Empty: the route's (2s unless configured).
     */
    @Nonbinding
    String maxWait() default "";

    /** The action for {@link FailureKind#CONNECTION}; at most one. Empty: the route's ({@code retry} unless configured). */
    @Nonbinding
    FailureAction[] onConnection() default {};

    /** The action for {@link FailureKind#TIMEOUT}: not {@code retry}. Empty: the route's ({@code failover}). */
    @Nonbinding
    FailureAction[] onTimeout() default {};

    /** The action for {@link FailureKind#RATE_LIMIT}. Empty: the route's ({@code failover}). */
    @Nonbinding
    FailureAction[] onRateLimit() default {};

    /** The action for {@link FailureKind#SPEND_LIMIT}: not {@code retry}. Empty: the route's ({@code failover}). */
    @Nonbinding
    FailureAction[] onSpendLimit() default {};

    /** The action for {@link FailureKind#SERVER_ERROR}. Empty: the route's ({@code retry}). */
    @Nonbinding
    FailureAction[] onServerError() default {};

    /** The action for {@link FailureKind#CREDENTIAL}: not {@code retry}. Empty: the route's ({@code failover}). */
    @Nonbinding
    FailureAction[] onCredential() default {};

    /** The action for {@link FailureKind#MODERATION}: not {@code retry}. Empty: the route's ({@code stop}). */
    @Nonbinding
    FailureAction[] onModeration() default {};

    /** The action for {@link FailureKind#INVALID_REQUEST}: not {@code retry}. Empty: the route's ({@code failover}). */
    @Nonbinding
    FailureAction[] onInvalidRequest() default {};

    /** The action for {@link FailureKind#MODEL_NOT_SERVED}: not {@code retry}. Empty: the route's ({@code failover}). */
    @Nonbinding
    FailureAction[] onModelNotServed() default {};

    /**
     * Models to try, in order, after every target of the route (or of the requested model) failed:
     * the opt-in cross-model fallback. Each must be served by a configured connection; at most 5.
     * A request's own {@code fallbacks} come first. Empty: none.
     */
    @Nonbinding
    String[] fallbacks() default {};

    /**
     * The text of a degraded answer, returned instead of an
     * {@link dev.baton.exception.UpstreamFailedException} when no target could serve (outages,
     * limits, timeouts; never for a moderation refusal or an invalid request). The answer is marked:
     * {@link ChatResponse#degraded()} is true and {@link ChatResponse#servedBy()} is {@code null}.
     * At most 4096 characters. Empty: the route's ({@code baton.routes.<name>.degraded}), else none.
     */
    @Nonbinding
    String degraded() default "";

    /**
     * How the usable targets of a tier are ordered for these calls: {@code priority},
     * {@code weighted}, {@code adaptive}, {@code least-busy} or {@code sticky} (see the routing
     * section of the configuration guide). The route's weights and tiers still apply; a route
     * without weights balances in equal shares. Empty: the route's ({@code priority} unless configured).
     */
    @Nonbinding
    String balance() default "";
}
