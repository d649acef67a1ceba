package dev.baton.impl.http;

import jakarta.json.JsonObject;

import java.util.List;

/**
 * A provider's stream vocabulary: turns its server-sent events into OpenAI
 * {@code chat.completion.chunk} objects and says when the answer is complete. One instance per
 * stream; called from one thread at a time.
 */
public interface StreamEvents {

    /**
     * The chunks one event yields, possibly none. A malformed event yields none (it is skipped,
     * never forwarded); an error event throws {@link dev.baton.spi.ProviderException}.
     */
    List<JsonObject> onEvent(SseParser.Event event);

    /** The provider said the stream is over ({@code [DONE]}, {@code message_stop}): stop reading. */
    boolean done();

    /** Whether the body ending now leaves a complete answer (a {@code finish_reason} was seen). */
    boolean completeAtEnd();
}
