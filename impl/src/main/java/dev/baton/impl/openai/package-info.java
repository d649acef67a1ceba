/**
 * The openai provider adapter (OpenAI and OpenAI-compatible hosts). Internal: not API, may change without notice.
 */
package dev.baton.impl.openai;
