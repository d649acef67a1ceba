package dev.baton.impl.openai;

import dev.baton.impl.http.Endpoints;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderTarget;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport;
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

    private final ProviderTransport http;
    private final OpenAiProtocol protocol;
    private final Endpoints endpoints = new Endpoints();

    public OpenAiAdapter(AdapterContext context) {
        this.http = context.transport();
        this.protocol = new OpenAiProtocol(context);
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

    /**
     * OpenAI's own API speaks the Responses API; a compatible host is sent chat completions unless its connection
     * says {@code responses=native}.
     */
    @Override
    public boolean speaksResponses(ProviderTarget target) {
        String setting = target.settings().get(OpenAiAdapterFactory.RESPONSES);
        return setting == null ? OpenAiAdapterFactory.isOpenAi(target.baseUrl()) : setting.equals("native");
    }

    @Override
    public CompletableFuture<JsonObject> respond(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, target.model(), false);
        return http.json(target.baseUrls(), base -> request(base, "/responses", target, wire, false), headersTimeout,
                protocol::failure);
    }

    @Override
    public Flow.Publisher<JsonObject> streamResponse(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.withModel(body, target.model());
        return http.stream(target.baseUrls(), base -> request(base, "/responses", target, wire, true), headersTimeout,
                protocol::failure, protocol::responseEvents);
    }

    @Override
    public CompletableFuture<JsonObject> embed(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.withModel(body, target.model());
        return http.json(target.baseUrls(), base -> request(base, "/embeddings", target, wire, false), headersTimeout,
                protocol::failure);
    }

    private Request request(URI base, ProviderTarget target, JsonObject wire, boolean stream) {
        return request(base, "/chat/completions", target, wire, stream);
    }

    private Request request(URI base, String path, ProviderTarget target, JsonObject wire, boolean stream) {
        Map<String, String> auth = target.apiKey().isEmpty() ? Map.of()
                : Map.of("authorization", "Bearer " + target.apiKey());
        return OpenAiProtocol.request(endpoints.of(base, path), wire, stream, auth, target.headers());
    }
}
