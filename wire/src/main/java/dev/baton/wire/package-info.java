/**
 * The providers' wire, as any adapter reads and writes it: {@link dev.baton.wire.Lines} and
 * {@link dev.baton.wire.SseParser} turn a response body into server-sent events, {@link dev.baton.wire.RetryAfter}
 * reads a provider's requested wait, {@link dev.baton.wire.JsonScan} and {@link dev.baton.wire.RawJsonObject} read
 * JSON without building a tree, and {@link dev.baton.wire.OpenAiShape} knows the parts of OpenAI's chat shapes the
 * engine looks at. Nothing here does I/O or holds state between calls, but for one stream's parser.
 */
package dev.baton.wire;
