/**
 * Request record stores: what one is, the one in memory, and how the one a module provides is found
 * ({@code baton-record-jdbc}). Internal: not API, may change without notice.
 */
package dev.baton.impl.record;
