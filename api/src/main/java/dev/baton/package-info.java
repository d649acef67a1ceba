/**
 * Baton's public API: {@link dev.baton.FailoverChatService} and the request, response and chunk
 * types it takes and returns. Stable.
 */
package dev.baton;
