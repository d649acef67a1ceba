package dev.baton.vertex;

import dev.baton.FailureKind;
import dev.baton.impl.anthropic.AnthropicErrors;
import dev.baton.impl.anthropic.AnthropicRequests;
import dev.baton.impl.anthropic.AnthropicResponses;
import dev.baton.impl.anthropic.AnthropicStreamEvents;
import dev.baton.impl.translate.UntranslatableRequestException;
import dev.baton.impl.concurrent.Publishers;
import dev.baton.impl.gemini.GoogleProtocol;
import dev.baton.impl.openai.OpenAiProtocol;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import dev.baton.spi.ProviderTransport;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.spi.ProviderTransport.StreamEvents;
import dev.baton.wire.OpenAiShape;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The Vertex AI adapter. Claude models speak Anthropic's Messages wire at
 * {@code {base}/publishers/anthropic/models/{model}:rawPredict} (and {@code :streamRawPredict}), the body as
 * {@link AnthropicRequests} builds it without {@code model} and with {@code "anthropic_version": "vertex-2023-10-16"};
 * other models (Gemini) speak the OpenAI wire at Vertex's {@code {base}/endpoints/openapi/chat/completions} as
 * {@code google/<model>}. Every request carries the connection's current OAuth access token ({@link AccessTokens});
 * errors are read in Google's shape first, then in the route's own (Anthropic's, passed through by Vertex, or
 * OpenAI's). Thread-safe; {@link #close()} stops the token refresher.
 */
public final class VertexAdapter implements ProviderAdapter, AutoCloseable {

    public static final String ID = "vertex";
    /** The {@code anthropic_version} Vertex AI takes for Claude (in the body, instead of a header). */
    static final String ANTHROPIC_VERSION = "vertex-2023-10-16";

    private static final JsonProvider JSON = JsonProvider.provider();
    /** What may stand in one URL path segment: {@code claude-sonnet-4-5@20250929}. */
    private static final Pattern MODEL_SEGMENT = Pattern.compile("[A-Za-z0-9._@-]+");

    private final AdapterContext context;
    private final ProviderTransport http;
    private final AccessTokens tokens;
    private final GoogleProtocol google;
    private final AnthropicErrors anthropic;
    private final OpenAiProtocol openAi;

    VertexAdapter(AdapterContext context, AccessTokens tokens) {
        this.context = context;
        this.http = context.transport();
        this.tokens = tokens;
        this.google = new GoogleProtocol(context);
        this.anthropic = new AnthropicErrors(context);
        this.openAi = new OpenAiProtocol(context);
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        Route route;
        try {
            route = route(target, body, false);
        } catch (ProviderException e) {
            return CompletableFuture.failedFuture(e);
        }
        AccessTokens.Source source = tokens.source(target.settings().get(VertexAdapterFactory.CREDENTIALS_FILE));
        CompletableFuture<AccessTokens.Token> token = source.token(headersTimeout);
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        AtomicReference<CompletableFuture<JsonObject>> sent = new AtomicReference<>();
        token.whenComplete((value, error) -> {
            if (error != null) {
                answer.completeExceptionally(unwrap(error));
                return;
            }
            if (answer.isDone()) {
                return; // cancelled while the token was on its way
            }
            CompletableFuture<JsonObject> exchange = http.json(target.baseUrls(),
                    base -> route.request(base, target, value), headersTimeout,
                    (status, text, headers) -> failure(route, source, value.value(), status, text, headers));
            sent.set(exchange);
            exchange.whenComplete((result, failed) -> {
                if (failed != null) {
                    answer.completeExceptionally(unwrap(failed));
                } else {
                    try {
                        answer.complete(route.answer.apply(result));
                    } catch (RuntimeException e) {
                        answer.completeExceptionally(e);
                    }
                }
            });
            if (answer.isCancelled()) {
                exchange.cancel(true);
            }
        });
        // Cancelling the answer must abort the exchange, not only the derived future.
        answer.whenComplete((r, t) -> {
            if (answer.isCancelled()) {
                CompletableFuture<JsonObject> exchange = sent.get();
                if (exchange != null) {
                    exchange.cancel(true);
                }
            }
        });
        return answer;
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        Route route;
        try {
            route = route(target, body, true);
        } catch (ProviderException e) {
            return Publishers.failed(e);
        }
        AccessTokens.Source source = tokens.source(target.settings().get(VertexAdapterFactory.CREDENTIALS_FILE));
        return Publishers.after(source.token(headersTimeout), value -> http.stream(target.baseUrls(),
                base -> route.request(base, target, value), headersTimeout,
                (status, text, headers) -> failure(route, source, value.value(), status, text, headers),
                () -> withoutToken(route.events.get(), value.value())));
    }

    /** Stops the token refresher; the adapter serves no more requests. */
    @Override
    public void close() {
        tokens.close();
    }

    /** Where one request goes and how its answer reads: Claude's rawPredict, or the OpenAI-compatible endpoint. */
    private record Route(boolean claude, String path, JsonObject wire, boolean stream,
                         Function<JsonObject, JsonObject> answer,
                         Supplier<StreamEvents> events) {

        Request request(URI base, ProviderTarget target, AccessTokens.Token token) {
            Map<String, String> auth = new LinkedHashMap<>();
            auth.put("authorization", "Bearer " + token.value());
            if (token.quotaProject() != null) {
                auth.put("x-goog-user-project", token.quotaProject()); // as Google's clients send it
            }
            URI uri = URI.create(base + path);
            if (!claude) {
                return OpenAiProtocol.request(uri, wire, stream, auth, target.headers());
            }
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("content-type", "application/json");
            headers.put("accept", stream ? "text/event-stream" : "application/json");
            headers.putAll(auth);
            headers.putAll(target.headers());
            return Request.post(uri, headers, wire.toString());
        }
    }

    /** The route of {@code target}'s model: {@code claude-…} (or {@code anthropic/claude-…}) is Claude's. */
    private Route route(ProviderTarget target, JsonObject body, boolean stream) {
        String model = target.model();
        String claude = model.startsWith("anthropic/") ? model.substring("anthropic/".length()) : model;
        if (claude.startsWith("claude-")) {
            if (!MODEL_SEGMENT.matcher(claude).matches()) {
                throw invalid("the model id '" + claude + "' cannot stand in a Vertex AI URL");
            }
            JsonObject wire;
            try {
                wire = JSON.createObjectBuilder(AnthropicRequests.toAnthropic(body, claude, stream))
                        .remove("model").add("anthropic_version", ANTHROPIC_VERSION).build();
            } catch (UntranslatableRequestException e) {
                throw invalid("Claude on Vertex AI cannot honour this request: " + e.getMessage());
            }
            boolean includeUsage = OpenAiShape.asksForUsage(body);
            return new Route(true, "/publishers/anthropic/models/" + claude + (stream ? ":streamRawPredict"
                    : ":rawPredict"), wire, stream,
                    message -> AnthropicResponses.toOpenAi(message, context.clock().millis() / 1000),
                    () -> new AnthropicStreamEvents(includeUsage, context));
        }
        // Vertex's OpenAI-compatible endpoint names models publisher/model.
        String publisherModel = model.indexOf('/') > 0 ? model : "google/" + model;
        return new Route(false, "/endpoints/openapi/chat/completions",
                OpenAiProtocol.wireBody(body, publisherModel, stream), stream, Function.identity(),
                () -> google.events(openAi.events()));
    }

    /**
     * Google's shape first (Vertex's own errors: token, permission, model, quota); else the route's own: Anthropic's
     * errors that Vertex passes through from Claude, OpenAI's from the compatible endpoint. A 401 drops the token.
     */
    private ProviderException failure(Route route, AccessTokens.Source source, String token, int status, String body,
                                      ResponseHeaders headers) {
        if (status == 401) {
            source.refreshSoon(token);
        }
        ProviderException failure = google.failure(status, body, headers);
        if (failure == null) {
            failure = route.claude() ? anthropic.failure(status, body, headers) : openAi.failure(status, body, headers);
        }
        return withoutToken(failure, token);
    }

    /**
     * {@code failure} with {@code token} cut out of its message: the redactor knows the configured keys, not the
     * tokens fetched since, and a provider's message is quoted.
     */
    static ProviderException withoutToken(ProviderException failure, String token) {
        ProviderFailure f = failure.failure();
        if (token.isEmpty() || !f.message().contains(token)) {
            return failure;
        }
        return new ProviderException(new ProviderFailure(f.kind(), f.httpStatus(), f.type(), f.code(),
                f.message().replace(token, "<token>"), f.retryAfter()), failure.getCause());
    }

    /** A stream's events whose error events never quote {@code token}. */
    private static StreamEvents withoutToken(StreamEvents events, String token) {
        return new StreamEvents() {
            @Override
            public List<JsonObject> onEvent(Event event) {
                try {
                    return events.onEvent(event);
                } catch (ProviderException e) {
                    throw withoutToken(e, token);
                }
            }

            @Override
            public boolean done() {
                return events.done();
            }

            @Override
            public boolean completeAtEnd() {
                return events.completeAtEnd();
            }
        };
    }

    private static ProviderException invalid(String message) {
        return new ProviderException(new ProviderFailure(FailureKind.INVALID_REQUEST, 0, "invalid_request_error",
                "untranslatable_request", message, null));
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
    }
}
