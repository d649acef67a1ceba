/**
 * What Baton's own translators share: reading the caller's OpenAI chat body, writing the OpenAI answer, and a
 * provider's failure redacted. Internal: not API, may change without notice.
 */
package dev.baton.impl.translate;
