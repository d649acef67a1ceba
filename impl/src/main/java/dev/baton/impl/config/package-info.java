/**
 * Reads and validates every baton.* key once, into immutable records; the credential redactor. Internal: not API, may change without notice.
 */
package dev.baton.impl.config;
