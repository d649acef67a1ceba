package dev.baton.impl.gemini;

import dev.baton.impl.openai.OpenAiProtocol;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTarget;
import dev.baton.spi.ProviderTransport;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import jakarta.json.JsonObject;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The Gemini API through its OpenAI-compatible endpoint ({@code {base}/chat/completions}): the OpenAI wire
 * ({@link OpenAiProtocol}) with the API key as a bearer token, never as {@code ?key=} (a URL ends up in logs and
 * exception messages), and Google's errors read by {@link GoogleProtocol}. Thread-safe.
 */
public final class GeminiAdapter implements ProviderAdapter {

    public static final String ID = "gemini";

    private final ProviderTransport http;
    private final OpenAiProtocol openAi;
    private final GoogleProtocol google;

    public GeminiAdapter(AdapterContext context) {
        this.http = context.transport();
        this.openAi = new OpenAiProtocol(context);
        this.google = new GoogleProtocol(context);
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, target.model(), false);
        return http.json(target.baseUrls(), base -> request(base, target, wire, false), headersTimeout,
                this::failure);
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, target.model(), true);
        return http.stream(target.baseUrls(), base -> request(base, target, wire, true), headersTimeout,
                this::failure, () -> google.events(openAi.events()));
    }

    /** Google's error shape first; an OpenAI-shaped error (or a proxy's page) through the OpenAI table. */
    private ProviderException failure(int status, String body, ResponseHeaders headers) {
        ProviderException failure = google.failure(status, body, headers);
        return failure != null ? failure : openAi.failure(status, body, headers);
    }

    private static Request request(URI base, ProviderTarget target, JsonObject wire, boolean stream) {
        Map<String, String> auth = target.apiKey().isEmpty() ? Map.of()
                : Map.of("authorization", "Bearer " + target.apiKey());
        return OpenAiProtocol.request(URI.create(base + "/chat/completions"), wire, stream, auth, target.headers());
    }
}
