package dev.baton.bedrock;

import dev.baton.FailureKind;
import dev.baton.impl.translate.UntranslatableRequestException;
import dev.baton.impl.concurrent.Publishers;
import dev.baton.impl.translate.ProviderFailures;
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
import dev.baton.wire.RawJsonObject;
import dev.baton.wire.RetryAfter;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * The Amazon Bedrock adapter: OpenAI chat requests in, Converse ({@code /model/{id}/converse}) and ConverseStream
 * ({@code /converse-stream}, an AWS event stream) on the wire, OpenAI answers and chunks out. Every request is signed
 * with SigV4 by AWS's own signer (service {@code bedrock}, the connection's {@code region}), or carries the
 * connection's {@code api-key} as a Bedrock API key ({@code Authorization: Bearer}). Thread-safe; never blocks: the
 * credentials come from {@link BedrockCredentials}, resolved on its own thread.
 */
public final class BedrockAdapter implements ProviderAdapter {

    public static final String ID = "bedrock";
    static final String SERVICE = "bedrock";
    private static final System.Logger LOG = System.getLogger(BedrockAdapter.class.getName());

    private final ProviderTransport http;
    private final AdapterContext context;
    private final BedrockCredentials credentials;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    public BedrockAdapter(AdapterContext context) {
        this.http = context.transport();
        this.context = context;
        this.credentials = new BedrockCredentials(context.clock());
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        byte[] wire;
        try {
            wire = ConverseRequests.toConverse(body).toString().getBytes(StandardCharsets.UTF_8);
        } catch (UntranslatableRequestException e) {
            return CompletableFuture.failedFuture(untranslatable(e));
        }
        String id = "chatcmpl-bedrock-" + UUID.randomUUID();
        long created = context.clock().millis() / 1000;
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        signing(target).whenComplete((sign, error) -> {
            if (error != null) {
                answer.completeExceptionally(error instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : error);
                return;
            }
            if (answer.isDone()) {
                return; // cancelled while the credentials were resolved
            }
            CompletableFuture<JsonObject> exchange = http.json(target.baseUrls(),
                    base -> sign.apply(request(base, target, "converse", wire, false)), headersTimeout, this::failure);
            // Cancelling the answer must abort the exchange, not only the derived future.
            answer.whenComplete((r, t) -> {
                if (answer.isCancelled()) {
                    exchange.cancel(true);
                }
            });
            exchange.whenComplete((converse, failed) -> {
                if (failed != null) {
                    answer.completeExceptionally(failed instanceof CompletionException c && c.getCause() != null
                            ? c.getCause() : failed);
                    return;
                }
                try {
                    answer.complete(ConverseResponses.toOpenAi(converse, id, target.model(), created));
                } catch (RuntimeException e) {
                    answer.completeExceptionally(e);
                }
            });
        });
        return answer;
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        byte[] wire;
        try {
            wire = ConverseRequests.toConverse(body).toString().getBytes(StandardCharsets.UTF_8);
        } catch (UntranslatableRequestException e) {
            return Publishers.failed(untranslatable(e));
        }
        boolean includeUsage = OpenAiShape.asksForUsage(body);
        String model = target.model();
        long created = context.clock().millis() / 1000;
        CompletableFuture<Function<Request, Request>> signing = signing(target);
        Function<Function<Request, Request>, Flow.Publisher<JsonObject>> open = sign -> http.stream(
                target.baseUrls(), base -> sign.apply(request(base, target, "converse-stream", wire, true)),
                headersTimeout, this::failure,
                () -> new Events(new ConverseStreamTranslator(includeUsage, "chatcmpl-bedrock-" + UUID.randomUUID(),
                        model, created), context),
                EventStreamFraming::new);
        return Publishers.after(signing, open); // credentials are nearly always cached: nothing to wait for
    }

    /** The connection's URL for {@code action} on the target's model, whose id is one URL path segment. */
    static Request request(URI base, ProviderTarget target, String action, byte[] wire, boolean stream) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/json");
        headers.put("accept", stream ? "application/vnd.amazon.eventstream" : "application/json");
        headers.putAll(target.headers());
        String model = URLEncoder.encode(target.model(), StandardCharsets.UTF_8).replace("+", "%20");
        return new Request("POST", URI.create(base + "/model/" + model + "/" + action), headers, wire);
    }

    /**
     * What completes a request for the target: its Bedrock API key as a bearer token when {@code api-key} is set,
     * else a SigV4 signature over the request with the connection's credentials, resolved without blocking.
     */
    private CompletableFuture<Function<Request, Request>> signing(ProviderTarget target) {
        if (!target.apiKey().isEmpty()) {
            String bearer = "Bearer " + target.apiKey();
            return CompletableFuture.completedFuture(r -> withHeaders(r, Map.of("authorization", bearer)));
        }
        BedrockCredentials.Source source = BedrockCredentials.Source.of(target.settings());
        String problem = source.problem();
        if (problem != null) {
            return CompletableFuture.failedFuture(credentialFailure(target, problem));
        }
        String region = target.settings().get("region");
        CompletableFuture<AwsCredentialsIdentity> identity = credentials.identity(source);
        return identity.handle((id, error) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                throw credentialFailure(target, "no AWS credentials from " + source.describe() + ": "
                        + cause.getMessage());
            }
            return r -> sign(r, id, region);
        });
    }

    /** {@code request} with AWS's SigV4 headers ({@code Authorization}, {@code X-Amz-Date}, the session token). */
    private Request sign(Request request, AwsCredentialsIdentity identity, String region) {
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder()
                .method(SdkHttpMethod.fromValue(request.method()))
                .uri(request.uri());
        request.headers().forEach(unsigned::putHeader);
        SdkHttpRequest signed = signer.sign(r -> r
                .identity(identity)
                .request(unsigned.build())
                .payload(ContentStreamProvider.fromByteArrayUnsafe(request.body()))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)).request();
        Map<String, String> added = new LinkedHashMap<>();
        signed.forEachHeader((name, values) -> {
            // Baton's client sets Host itself, to the value the signer signed (host, and port if not the default)
            if (!name.equalsIgnoreCase("host") && !request.headers().containsKey(name) && !values.isEmpty()) {
                added.put(name, values.get(0));
            }
        });
        return withHeaders(request, added);
    }

    private static Request withHeaders(Request request, Map<String, String> more) {
        Map<String, String> headers = new LinkedHashMap<>(request.headers());
        headers.putAll(more);
        return new Request(request.method(), request.uri(), headers, request.body());
    }

    private ProviderException credentialFailure(ProviderTarget target, String problem) {
        return new ProviderException(new ProviderFailure(FailureKind.CREDENTIAL, 0, null, "aws_credentials",
                context.redact("connection " + target.connection() + " (bedrock): " + problem), null));
    }

    private static ProviderException untranslatable(UntranslatableRequestException e) {
        return new ProviderException(new ProviderFailure(FailureKind.INVALID_REQUEST, 0, "invalid_request_error",
                "untranslatable_request", "Bedrock Converse cannot honour this request: " + e.getMessage(), null));
    }

    /**
     * Bedrock's error response ({@code {"message":…}}, the exception's name in {@code x-amzn-ErrorType} or
     * {@code __type}) to a classified failure.
     */
    ProviderException failure(int status, String body, ResponseHeaders headers) {
        String type = BedrockClassifier.exceptionName(headers.firstValue("x-amzn-ErrorType").orElse(null));
        String message = null;
        try {
            JsonObject error = RawJsonObject.parse(body);
            if (type == null) {
                type = BedrockClassifier.exceptionName(text(error.get("__type")));
            }
            message = text(error.get("message"));
            if (message == null) {
                message = text(error.get("Message"));
            }
        } catch (JsonException | ClassCastException | IllegalStateException e) {
            // a proxy's HTML page: the status alone classifies it
        }
        Duration retryAfter = RetryAfter.parse(headers, context.clock().instant());
        FailureKind kind = BedrockClassifier.classify(status, type, message);
        String detail = "HTTP " + status + (type != null ? " " + type : "") + (message != null ? ": " + message : "");
        return new ProviderException(new ProviderFailure(kind, status, type, null, context.redact(detail), retryAfter));
    }

    private static String text(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : null;
    }

    /** ConverseStream's events through the translator; complete at {@code messageStop}, done at {@code metadata}. */
    private static final class Events implements StreamEvents {
        private final ConverseStreamTranslator translator;
        private final AdapterContext context;
        private int malformed;

        Events(ConverseStreamTranslator translator, AdapterContext context) {
            this.translator = translator;
            this.context = context;
        }

        @Override
        public List<JsonObject> onEvent(Event event) {
            JsonObject data;
            try {
                data = RawJsonObject.parse(event.data());
            } catch (JsonException | ClassCastException | IllegalStateException e) {
                if (!event.event().startsWith(EventStreamFraming.EXCEPTION)) {
                    malformed++;
                    LOG.log(Level.DEBUG, "skipped a malformed stream event ({0} so far)", malformed);
                    return List.of();
                }
                data = JsonValue.EMPTY_JSON_OBJECT; // an exception is one whatever its payload
            }
            try {
                return translator.onEvent(event.event(), data);
            } catch (ProviderException e) {
                throw ProviderFailures.redacted(e, context);
            }
        }

        @Override
        public boolean done() {
            return translator.done();
        }

        @Override
        public boolean completeAtEnd() {
            return translator.stopped();
        }
    }
}
