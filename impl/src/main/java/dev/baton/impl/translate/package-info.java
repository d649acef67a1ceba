/**
 * Reading and validating the caller's OpenAI chat-completions body, shared by Baton's own translators. Internal: not
 * API, may change without notice.
 */
package dev.baton.impl.translate;
