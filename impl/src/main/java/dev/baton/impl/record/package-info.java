/**
 * Request record stores: in memory and JDBC. Internal: not API, may change without notice.
 */
package dev.baton.impl.record;
