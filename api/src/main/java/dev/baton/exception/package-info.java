/** The failures a caller of {@link dev.baton.FailoverChatService} sees. Stable. */
package dev.baton.exception;
