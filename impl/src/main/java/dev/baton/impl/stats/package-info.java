/**
 * Every connection's recent counts, for operators' views. Internal: not API, may change without notice.
 */
package dev.baton.impl.stats;
