/**
 * Per-connection concurrency and rate limits. Internal: not API, may change without notice.
 */
package dev.baton.impl.limits;
