package dev.baton.impl.cdi;

import dev.baton.impl.config.PolicyOverride;

/**
 * The {@code @FailoverPolicy} of the business method running on this thread, set by
 * {@link FailoverPolicyInterceptor} for the duration of the call and read when a request is
 * admitted.
 */
final class PolicyScope {

    private static final ThreadLocal<PolicyOverride> CURRENT = new ThreadLocal<>();

    private PolicyScope() {
    }

    /** The policy of the innermost annotated method running on this thread, or {@code null}. */
    static PolicyOverride current() {
        return CURRENT.get();
    }

    /** Makes {@code policy} current and returns the one it replaces, for {@link #restore}. */
    static PolicyOverride enter(PolicyOverride policy) {
        PolicyOverride previous = CURRENT.get();
        CURRENT.set(policy);
        return previous;
    }

    static void restore(PolicyOverride previous) {
        if (previous == null) {
            CURRENT.remove(); // leave nothing behind on a pooled thread
        } else {
            CURRENT.set(previous);
        }
    }
}
