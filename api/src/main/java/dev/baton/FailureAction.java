package dev.baton;

/** What a failure kind does on a route. */
public enum FailureAction {
    /** Spend the route's same-target retries, then fail over. */
    RETRY,
    /** Move to the next target at once. */
    FAILOVER,
    /** Answer the caller with this failure now. */
    STOP
}
