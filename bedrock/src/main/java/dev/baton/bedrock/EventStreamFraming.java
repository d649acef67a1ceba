package dev.baton.bedrock;

import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.EventFraming;
import dev.baton.wire.EventStreamDecoder;
import jakarta.json.spi.JsonProvider;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * ConverseStream's body ({@code application/vnd.amazon.eventstream}) as {@link Event}s: an event frame is its
 * {@code :event-type} and JSON payload; an exception frame is {@link #EXCEPTION} and its {@code :exception-type}
 * (an error frame its {@code :error-code}, its {@code :error-message} as the payload's {@code message}). A corrupt
 * frame or one past the limit throws {@link EventStreamDecoder.EventStreamException}, an {@link IllegalStateException}.
 * One per stream; not thread-safe.
 */
final class EventStreamFraming implements EventFraming {

    /** How the event name of an exception frame begins; no Converse event type does. */
    static final String EXCEPTION = "exception:";

    private static final JsonProvider JSON = JsonProvider.provider();

    private final EventStreamDecoder decoder;

    EventStreamFraming(long maxEventBytes) {
        this.decoder = new EventStreamDecoder(maxEventBytes);
    }

    @Override
    public void feed(ByteBuffer data, Consumer<Event> sink) {
        decoder.feed(data, message -> {
            String kind = message.string(":message-type");
            if ("exception".equals(kind)) {
                sink.accept(new Event(EXCEPTION + nonNull(message.string(":exception-type")), message.text()));
            } else if ("error".equals(kind)) {
                String text = message.string(":error-message");
                sink.accept(new Event(EXCEPTION + nonNull(message.string(":error-code")), JSON.createObjectBuilder()
                        .add("message", text == null ? "" : text).build().toString()));
            } else if (message.string(":event-type") != null) {
                sink.accept(new Event(message.string(":event-type"), message.text()));
            }
        });
    }

    /** A message cut by the end of the body is dropped: whether the answer was complete decides the outcome. */
    @Override
    public void finish(Consumer<Event> sink) {
    }

    private static String nonNull(String type) {
        return type == null ? "unknown" : type;
    }
}
