/**
 * Baton's threads and its one timer. Internal: not API, may change without notice.
 */
package dev.baton.impl.concurrent;
