package dev.baton.impl.anthropic;

import dev.baton.impl.translate.ProviderFailures;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.StreamEvents;
import dev.baton.wire.RawJsonObject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Anthropic's named stream events through the {@link AnthropicStreamTranslator}, for every adapter that reads an
 * Anthropic Messages stream (Anthropic's API, Claude on Vertex AI); complete only at {@code message_stop}. One
 * instance per stream, fed by one thread at a time.
 */
public final class AnthropicStreamEvents implements StreamEvents {

    private static final System.Logger LOG = System.getLogger(AnthropicStreamEvents.class.getName());

    private final AnthropicStreamTranslator translator;
    private final AdapterContext context;
    private int malformed;

    /** @param includeUsage whether the caller asked for {@code stream_options.include_usage} */
    public AnthropicStreamEvents(boolean includeUsage, AdapterContext context) {
        this.translator = new AnthropicStreamTranslator(includeUsage, context.clock().millis() / 1000);
        this.context = context;
    }

    @Override
    public List<JsonObject> onEvent(Event event) {
        JsonObject data;
        try {
            data = RawJsonObject.parse(event.data());
        } catch (JsonException | ClassCastException | IllegalStateException e) {
            malformed++;
            LOG.log(Level.DEBUG, "skipped a malformed stream event ({0} so far)", malformed);
            return List.of();
        }
        String name = event.event() != null ? event.event()
                : data.get("type") instanceof JsonString type ? type.getString() : null;
        if (name == null) {
            return List.of();
        }
        try {
            return translator.onEvent(name, data);
        } catch (ProviderException e) {
            throw ProviderFailures.redacted(e, context);
        }
    }

    @Override
    public boolean done() {
        return translator.finished();
    }

    @Override
    public boolean completeAtEnd() {
        return translator.finished();
    }
}
