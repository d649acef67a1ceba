/**
 * The failover pipeline: admit, plan, attempt, classify, decide, answer, record. Internal: not API, may change without notice.
 */
package dev.baton.impl.engine;
