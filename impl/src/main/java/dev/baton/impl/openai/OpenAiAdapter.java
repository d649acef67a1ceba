package dev.baton.impl.openai;

import dev.baton.ChatChunk;
import dev.baton.FailureKind;
import dev.baton.impl.engine.Redactor;
import dev.baton.impl.http.BoundedBody;
import dev.baton.impl.http.RetryAfter;
import dev.baton.impl.http.SseParser;
import dev.baton.impl.http.Transport;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The OpenAI chat-completions adapter, also used for OpenAI-compatible hosts. Translates nothing
 * but {@code model} and {@code stream}: unknown fields pass through. Thread-safe.
 */
public final class OpenAiAdapter implements ProviderAdapter {

    public static final String ID = "openai";
    private static final System.Logger LOG = System.getLogger(OpenAiAdapter.class.getName());

    private final HttpClient client;
    private final long maxResponseBytes;
    private final Redactor redactor;

    public OpenAiAdapter(HttpClient client, long maxResponseBytes, Redactor redactor) {
        this.client = client;
        this.maxResponseBytes = maxResponseBytes;
        this.redactor = redactor;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = Json.createObjectBuilder(body).add("model", target.model()).add("stream", false)
                .remove("stream_options").build();
        HttpRequest request = request(target, wire, headersTimeout, false);
        CompletableFuture<HttpResponse<String>> exchange =
                client.sendAsync(request, info -> new BoundedBody(maxResponseBytes));
        CompletableFuture<JsonObject> result = exchange.handle((response, error) -> {
            if (error != null) {
                throw Transport.failure(error, headersTimeout);
            }
            if (response.statusCode() / 100 != 2) {
                throw failure(response.statusCode(), response.body(), response.headers());
            }
            try {
                return parse(response.body());
            } catch (JsonException | ClassCastException e) {
                throw new ProviderException(new ProviderFailure(FailureKind.SERVER_ERROR, response.statusCode(),
                        null, null, "the provider answered " + response.statusCode() + " with a body that is not JSON",
                        null));
            }
        });
        // Cancelling the attempt must abort the exchange, not only the derived future.
        result.whenComplete((r, t) -> {
            if (result.isCancelled()) {
                exchange.cancel(true);
            }
        });
        return result;
    }

    @Override
    public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration headersTimeout) {
        JsonObject wire = Json.createObjectBuilder(body).add("model", target.model()).add("stream", true).build();
        HttpRequest request = request(target, wire, headersTimeout, true);
        return subscriber -> new ChunkStream(request, headersTimeout, subscriber).start();
    }

    private HttpRequest request(ProviderTarget target, JsonObject wire, Duration headersTimeout, boolean stream) {
        URI uri = URI.create(target.baseUrl() + "/chat/completions");
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .timeout(headersTimeout)
                .header("content-type", "application/json")
                .header("accept", stream ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(wire.toString()));
        if ("http".equals(uri.getScheme())) {
            builder.version(HttpClient.Version.HTTP_1_1); // no h2c upgrade dance with local hosts
        }
        if (!target.apiKey().isEmpty()) {
            builder.header("authorization", "Bearer " + target.apiKey());
        }
        target.headers().forEach(builder::header);
        return builder.build();
    }

    /** Turns an error response into a classified failure; the message is the provider's, without credentials. */
    ProviderException failure(int status, String body, java.net.http.HttpHeaders headers) {
        String type = null;
        String code = null;
        String message = null;
        try {
            JsonObject error = parse(body).getJsonObject("error");
            if (error != null) {
                type = text(error.get("type"));
                code = text(error.get("code"));
                message = text(error.get("message"));
            }
        } catch (JsonException | ClassCastException | IllegalStateException e) {
            // Proxies answer 502/504 with HTML; the status alone classifies it.
        }
        FailureKind kind = OpenAiClassifier.classify(status, type, code);
        String detail = "HTTP " + status + (code != null ? " " + code : type != null ? " " + type : "")
                + (message != null ? ": " + message : "");
        return new ProviderException(new ProviderFailure(kind, status, type, code, redactor.clean(detail),
                RetryAfter.parse(headers, Clock.systemUTC().instant())));
    }

    private ProviderException streamError(JsonObject error) {
        String type = text(error.get("type"));
        String code = text(error.get("code"));
        String message = text(error.get("message"));
        FailureKind kind = OpenAiClassifier.classify(0, type, code);
        return new ProviderException(new ProviderFailure(kind, 0, type, code,
                redactor.clean("error event in stream" + (code != null ? " " + code : "") + (message != null ? ": " + message : "")),
                null));
    }

    private static JsonObject parse(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    private static String text(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : value == null || value == JsonValue.NULL ? null : value.toString();
    }

    /**
     * One streamed exchange: lines from the HTTP client become SSE events become chunks. Demand
     * flows from the subscriber to the line subscription one line at a time, so a slow reader
     * slows the provider's socket instead of filling memory.
     */
    private final class ChunkStream implements Flow.Subscription, Flow.Subscriber<String> {

        private final HttpRequest request;
        private final Duration headersTimeout;
        private final Flow.Subscriber<? super JsonObject> downstream;
        private final SseParser parser = new SseParser(maxResponseBytes);
        private final AtomicLong demand = new AtomicLong();
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Flow.Subscription lines;
        private volatile CompletableFuture<?> exchange;
        private boolean sawFinish;
        private int malformed;
        private boolean waitingForLine;

        ChunkStream(HttpRequest request, Duration headersTimeout, Flow.Subscriber<? super JsonObject> downstream) {
            this.request = request;
            this.headersTimeout = headersTimeout;
            this.downstream = downstream;
        }

        void start() {
            downstream.onSubscribe(this);
            if (done.get()) {
                return;
            }
            CompletableFuture<HttpResponse<String>> sent = client.sendAsync(request, info -> info.statusCode() / 100 == 2
                    ? HttpResponse.BodySubscribers.fromLineSubscriber(this, s -> null, StandardCharsets.UTF_8, null)
                    : new BoundedBody(maxResponseBytes));
            exchange = sent;
            sent.whenComplete((response, error) -> {
                try {
                    if (error != null) {
                        fail(Transport.failure(error, headersTimeout));
                    } else if (response.statusCode() / 100 != 2) {
                        fail(failure(response.statusCode(), response.body(), response.headers()));
                    }
                } catch (RuntimeException bug) {
                    fail(bug); // never leave the subscriber waiting for a signal
                }
            });
            if (done.get()) {
                sent.cancel(true);
            }
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                fail(new IllegalArgumentException("request(" + n + "): demand must be positive"));
                return;
            }
            if (demand.getAndAdd(n) == 0) {
                pull();
            }
        }

        @Override
        public void cancel() {
            done.set(true);
            abortExchange();
        }

        private void abortExchange() {
            Flow.Subscription s = lines;
            if (s != null) {
                s.cancel();
            }
            CompletableFuture<?> e = exchange;
            if (e != null) {
                e.cancel(true);
            }
        }

        private synchronized void pull() {
            Flow.Subscription s = lines;
            if (s != null && !waitingForLine && demand.get() > 0 && !done.get()) {
                waitingForLine = true;
                s.request(1);
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            lines = subscription;
            if (done.get()) {
                subscription.cancel();
                return;
            }
            pull();
        }

        @Override
        public void onNext(String line) {
            synchronized (this) {
                waitingForLine = false;
            }
            if (done.get()) {
                return;
            }
            SseParser.Event event;
            try {
                event = parser.line(line);
            } catch (IllegalStateException tooLarge) {
                fail(new ProviderException(ProviderFailure.transport(FailureKind.SERVER_ERROR, tooLarge.getMessage())));
                return;
            }
            if (event != null) {
                handle(event);
            }
            pull();
        }

        private void handle(SseParser.Event event) {
            String data = event.data().strip();
            if (data.startsWith("[DONE]")) {
                complete();
                return;
            }
            JsonObject chunk;
            try {
                chunk = parse(data);
            } catch (JsonException | ClassCastException | IllegalStateException e) {
                // Skipped and counted, never forwarded: a client cannot parse it either.
                malformed++;
                LOG.log(Level.DEBUG, "skipped a malformed stream event ({0} so far)", malformed);
                return;
            }
            if (chunk.get("error") instanceof JsonObject error) {
                fail(streamError(error));
                return;
            }
            if (new ChatChunk(chunk, null, null).finishReason() != null) {
                sawFinish = true;
            }
            demand.decrementAndGet();
            downstream.onNext(chunk);
        }

        @Override
        public void onError(Throwable throwable) {
            fail(Transport.failure(throwable, headersTimeout));
        }

        @Override
        public void onComplete() {
            SseParser.Event last = parser.finish();
            if (last != null && !done.get()) {
                handle(last);
            }
            if (sawFinish) {
                complete(); // a finished answer without [DONE] is complete (some hosts omit it)
            } else {
                fail(new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION,
                        "the stream ended before the provider finished the answer")));
            }
        }

        private void complete() {
            if (done.compareAndSet(false, true)) {
                Flow.Subscription s = lines;
                if (s != null) {
                    s.request(Long.MAX_VALUE); // drain what follows [DONE] so the connection can be reused
                }
                downstream.onComplete();
            }
        }

        private void fail(Throwable error) {
            if (done.compareAndSet(false, true)) {
                abortExchange();
                downstream.onError(error);
            }
        }
    }
}
