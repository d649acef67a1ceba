/**
 * Rate-limited logging. Internal: not API, may change without notice.
 */
package dev.baton.impl.log;
