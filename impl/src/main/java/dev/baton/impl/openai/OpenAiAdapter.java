package dev.baton.impl.openai;

import dev.baton.impl.engine.Redactor;
import dev.baton.impl.http.BatonHttpClient;
import dev.baton.impl.http.HttpCall;
import dev.baton.impl.http.HttpExchange;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderTarget;
import jakarta.json.JsonObject;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The OpenAI chat-completions adapter, also used for OpenAI-compatible hosts. Translates nothing
 * but {@code model} and {@code stream}: unknown fields pass through. The wire itself is
 * {@link OpenAiProtocol}. Thread-safe.
 */
public final class OpenAiAdapter implements ProviderAdapter {

    public static final String ID = "openai";

    private final HttpExchange http;
    private final OpenAiProtocol protocol;

    public OpenAiAdapter(BatonHttpClient client, long maxResponseBytes, Redactor redactor) {
        this.http = new HttpExchange(client, maxResponseBytes);
        this.protocol = new OpenAiProtocol(redactor);
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, target.model(), false);
        return http.json(target.baseUrls(), base -> request(base, target, wire, false), headersTimeout,
                protocol::failure);
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, target.model(), true);
        return http.stream(target.baseUrls(), base -> request(base, target, wire, true), headersTimeout,
                protocol::failure, protocol::events);
    }

    private static HttpCall request(URI base, ProviderTarget target, JsonObject wire, boolean stream) {
        Map<String, String> auth = target.apiKey().isEmpty() ? Map.of()
                : Map.of("authorization", "Bearer " + target.apiKey());
        return OpenAiProtocol.request(URI.create(base + "/chat/completions"), wire, stream, auth, target.headers());
    }
}
