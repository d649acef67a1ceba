package dev.baton.record;

/**
 * A target of the plan that was not attempted, and why (ejected until a time, parked, out of
 * deadline, same provider already rejected the request as invalid, …).
 */
public record SkippedTarget(String target, String position, String reason) {
}
