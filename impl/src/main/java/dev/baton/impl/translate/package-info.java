/**
 * What Baton's own translators share: reading the caller's OpenAI chat body, writing the OpenAI answer, a provider's
 * failure redacted, and the OpenAI Responses API to and from chat completions ({@link ResponsesRequests},
 * {@link ResponsesWriting}) for targets that do not speak it. Internal: not API, may change without notice.
 */
package dev.baton.impl.translate;
