/**
 * The azure-openai provider adapter. Internal: not API, may change without notice.
 */
package dev.baton.impl.azure;
