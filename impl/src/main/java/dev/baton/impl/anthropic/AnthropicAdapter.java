package dev.baton.impl.anthropic;

import dev.baton.impl.concurrent.Publishers;
import dev.baton.impl.http.Endpoints;
import dev.baton.impl.translate.UntranslatableRequestException;
import dev.baton.wire.OpenAiShape;
import dev.baton.FailureKind;
import dev.baton.wire.SseParser;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.spi.ProviderTransport;
import jakarta.json.JsonObject;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The Anthropic Messages adapter: OpenAI chat requests in, OpenAI answers and chunks out, with
 * the translation of {@link AnthropicRequests}, {@link AnthropicResponses} and
 * {@link AnthropicStreamTranslator}. A request Anthropic cannot honour fails the attempt as
 * {@code invalid_request}, so the engine moves to a different provider or model. Thread-safe.
 */
public final class AnthropicAdapter implements ProviderAdapter {

    public static final String ID = "anthropic";
    static final String API_VERSION = "2023-06-01";

    private final ProviderTransport http;
    private final AdapterContext context;
    private final AnthropicErrors errors;
    private final Endpoints endpoints = new Endpoints();

    public AnthropicAdapter(AdapterContext context) {
        this.http = context.transport();
        this.context = context;
        this.errors = new AnthropicErrors(context);
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire;
        try {
            wire = AnthropicRequests.toAnthropic(body, target.model(), false);
        } catch (UntranslatableRequestException e) {
            return CompletableFuture.failedFuture(untranslatable(e));
        }
        CompletableFuture<JsonObject> message = http.json(target.baseUrls(), base -> request(base, target, wire, false),
                headersTimeout, this::failure);
        CompletableFuture<JsonObject> answer = message.thenApply(m -> AnthropicResponses.toOpenAi(m,
                context.clock().millis() / 1000));
        // Cancelling the answer must abort the exchange, not only the derived future.
        answer.whenComplete((r, t) -> {
            if (answer.isCancelled()) {
                message.cancel(true);
            }
        });
        return answer;
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire;
        try {
            wire = AnthropicRequests.toAnthropic(body, target.model(), true);
        } catch (UntranslatableRequestException e) {
            return Publishers.failed(untranslatable(e));
        }
        boolean includeUsage = OpenAiShape.asksForUsage(body);
        return http.stream(target.baseUrls(), base -> request(base, target, wire, true), headersTimeout,
                this::failure,
                () -> new AnthropicStreamEvents(includeUsage, context));
    }

    private Request request(URI base, ProviderTarget target, JsonObject wire, boolean stream) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/json");
        headers.put("accept", stream ? "text/event-stream" : "application/json");
        headers.put("anthropic-version", API_VERSION);
        if (!target.apiKey().isEmpty()) {
            headers.put("x-api-key", target.apiKey());
        }
        headers.putAll(target.headers());
        return Request.post(endpoints.of(base, "/messages"), headers, wire.toString());
    }

    private static ProviderException untranslatable(UntranslatableRequestException e) {
        return new ProviderException(new ProviderFailure(FailureKind.INVALID_REQUEST, 0, "invalid_request_error",
                "untranslatable_request", "Anthropic cannot honour this request: " + e.getMessage(), null));
    }

    /** {@code {"type":"error","error":{…}}} to a classified failure: {@link AnthropicErrors}. */
    ProviderException failure(int status, String body, ResponseHeaders headers) {
        return errors.failure(status, body, headers);
    }

}
