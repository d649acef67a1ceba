package dev.baton.impl.azure;

import dev.baton.impl.openai.OpenAiProtocol;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderTarget;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport;
import jakarta.json.JsonObject;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The Azure OpenAI adapter: the OpenAI chat-completions wire ({@link OpenAiProtocol}) sent to
 * {@code {base}/openai/deployments/{deployment}/chat/completions?api-version=…} with an {@code api-key} header. The
 * deployment is the target's {@code deployment} setting (default: the model's name), the API version its
 * {@code api-version} setting. Azure's content_filter 400 ({@code "type": null}, {@code innererror}) is a moderation
 * failure through the OpenAI table; a completion filtered after it began ({@code finish_reason: content_filter}) is
 * an answer and passes through. Thread-safe.
 */
public final class AzureOpenAiAdapter implements ProviderAdapter {

    public static final String ID = "azure-openai";
    /** The {@link ProviderTarget#settings()} names this adapter reads. */
    public static final String DEPLOYMENT = "deployment";
    public static final String API_VERSION = "api-version";

    private final ProviderTransport http;
    private final OpenAiProtocol protocol;

    public AzureOpenAiAdapter(AdapterContext context) {
        this.http = context.transport();
        this.protocol = new OpenAiProtocol(context);
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, deployment(target), false);
        return http.json(target.baseUrls(), base -> request(base, target, wire, false), headersTimeout,
                protocol::failure);
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, deployment(target), true);
        return http.stream(target.baseUrls(), base -> request(base, target, wire, true), headersTimeout,
                protocol::failure, protocol::events);
    }

    /** Azure OpenAI's v1 API speaks the Responses API: {@code {base}/openai/v1/responses}, the deployment as model. */
    @Override
    public boolean speaksResponses(ProviderTarget target) {
        return true;
    }

    @Override
    public CompletableFuture<JsonObject> respond(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.wireBody(body, deployment(target), false);
        return http.json(target.baseUrls(), base -> responses(base, target, wire, false), headersTimeout,
                protocol::failure);
    }

    @Override
    public Flow.Publisher<JsonObject> streamResponse(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.withModel(body, deployment(target));
        return http.stream(target.baseUrls(), base -> responses(base, target, wire, true), headersTimeout,
                protocol::failure, protocol::responseEvents);
    }

    /** {@code {base}/openai/deployments/{deployment}/embeddings?api-version={version}}. */
    @Override
    public CompletableFuture<JsonObject> embed(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = OpenAiProtocol.withModel(body, deployment(target));
        return http.json(target.baseUrls(), base -> OpenAiProtocol.request(uri(base, target, "embeddings"), wire, false,
                auth(target), target.headers()), headersTimeout, protocol::failure);
    }

    /** The deployment a target's model is served by: its configured deployment, else one named like the model. */
    static String deployment(ProviderTarget target) {
        return target.settings().getOrDefault(DEPLOYMENT, target.model());
    }

    /** {@code {base}/openai/deployments/{deployment}/chat/completions?api-version={version}}. */
    static URI uri(URI base, ProviderTarget target) {
        return uri(base, target, "chat/completions");
    }

    private static URI uri(URI base, ProviderTarget target, String operation) {
        String version = target.settings().get(API_VERSION);
        if (version == null) {
            throw new IllegalStateException(target.name() + ": an azure-openai target needs an api-version setting");
        }
        return URI.create(base + "/openai/deployments/" + URLEncoder.encode(deployment(target), StandardCharsets.UTF_8)
                + "/" + operation + "?api-version=" + URLEncoder.encode(version, StandardCharsets.UTF_8));
    }

    private static Request request(URI base, ProviderTarget target, JsonObject wire, boolean stream) {
        return OpenAiProtocol.request(uri(base, target), wire, stream, auth(target), target.headers());
    }

    private static Request responses(URI base, ProviderTarget target, JsonObject wire, boolean stream) {
        return OpenAiProtocol.request(URI.create(base + "/openai/v1/responses"), wire, stream, auth(target),
                target.headers());
    }

    private static Map<String, String> auth(ProviderTarget target) {
        return target.apiKey().isEmpty() ? Map.of() : Map.of("api-key", target.apiKey());
    }
}
