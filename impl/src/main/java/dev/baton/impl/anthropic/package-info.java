/**
 * The anthropic provider adapter and its translation to and from the OpenAI format. Internal: not API, may change without notice.
 */
package dev.baton.impl.anthropic;
