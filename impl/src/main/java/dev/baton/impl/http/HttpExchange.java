package dev.baton.impl.http;

import dev.baton.FailureKind;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The HTTP half every adapter shares: one JSON exchange, or one SSE stream turned into chunks by a
 * provider's {@link StreamEvents}. Bodies are bounded, cancelling aborts the exchange, and
 * failures are classified by the provider's {@link ErrorReader} or by {@link Transport}. A connection's
 * alternate hosts are tried here, inside the one exchange, when a host cannot be reached.
 * Thread-safe.
 */
public final class HttpExchange {

    private static final System.Logger LOG = System.getLogger(HttpExchange.class.getName());

    private final HttpClient client;
    private final long maxResponseBytes;

    public HttpExchange(HttpClient client, long maxResponseBytes) {
        this.client = client;
        this.maxResponseBytes = maxResponseBytes;
    }

    /**
     * Sends the request {@code request} builds for the first of {@code bases}; when that host cannot be reached
     * (see {@link Transport#unreachable}) and no response status arrived, the next base is tried, all inside this
     * one exchange. Parses a 2xx body as JSON. Cancelling the future aborts the exchange.
     */
    public CompletableFuture<JsonObject> json(List<URI> bases, Function<URI, HttpRequest> request,
                                              Duration headersTimeout, ErrorReader errors) {
        CompletableFuture<JsonObject> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<?>> current = new AtomicReference<>();
        // Cancelling the attempt must abort the exchange, not only the derived future.
        result.whenComplete((r, t) -> {
            if (result.isCancelled()) {
                CompletableFuture<?> c = current.get();
                if (c != null) {
                    c.cancel(true);
                }
            }
        });
        sendJson(bases, 0, request, headersTimeout, errors, result, current);
        return result;
    }

    private void sendJson(List<URI> bases, int index, Function<URI, HttpRequest> request, Duration headersTimeout,
                          ErrorReader errors, CompletableFuture<JsonObject> result,
                          AtomicReference<CompletableFuture<?>> current) {
        if (result.isDone()) {
            return;
        }
        AtomicBoolean responded = new AtomicBoolean();
        CompletableFuture<HttpResponse<String>> exchange;
        try {
            exchange = client.sendAsync(request.apply(bases.get(index)), info -> {
                responded.set(true);
                return new BoundedBody(maxResponseBytes);
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        current.set(exchange);
        if (result.isCancelled()) {
            exchange.cancel(true);
            return;
        }
        exchange.whenComplete((response, error) -> {
            try {
                if (error != null) {
                    if (!responded.get() && index + 1 < bases.size() && !result.isDone() && Transport.unreachable(error)) {
                        LOG.log(Level.INFO, "{0} cannot be reached ({1}); trying the alternate host {2}",
                                bases.get(index).getHost(), Transport.failure(error, headersTimeout).failure().message(),
                                bases.get(index + 1).getHost());
                        sendJson(bases, index + 1, request, headersTimeout, errors, result, current);
                        return;
                    }
                    result.completeExceptionally(Transport.failure(error, headersTimeout));
                } else if (response.statusCode() / 100 != 2) {
                    result.completeExceptionally(errors.read(response.statusCode(), response.body(), response.headers()));
                } else {
                    try {
                        result.complete(parse(response.body()));
                    } catch (JsonException | ClassCastException | IllegalStateException e) {
                        result.completeExceptionally(new ProviderException(new ProviderFailure(FailureKind.SERVER_ERROR,
                                response.statusCode(), null, null, "the provider answered " + response.statusCode()
                                + " with a body that is not JSON", null)));
                    }
                }
            } catch (RuntimeException bug) {
                result.completeExceptionally(bug); // never leave the caller waiting
            }
        });
    }

    /**
     * A cold publisher: subscribing sends the request built for the first of {@code bases} and streams the chunks
     * {@code events} yields. A host that cannot be reached before any response status arrived is replaced by the
     * next base, inside the same exchange; once a status arrived, nothing moves.
     */
    public Flow.Publisher<JsonObject> stream(List<URI> bases, Function<URI, HttpRequest> request,
                                             Duration headersTimeout, ErrorReader errors,
                                             Supplier<StreamEvents> events) {
        return subscriber -> new ChunkStream(bases, request, headersTimeout, errors, events.get(), subscriber).start();
    }

    /** A publisher that fails its subscriber at once, as the Reactive Streams rules require: onSubscribe first. */
    public static <T> Flow.Publisher<T> failed(Throwable error) {
        return subscriber -> {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            subscriber.onError(error);
        };
    }

    public static JsonObject parse(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /**
     * One streamed exchange: lines from the HTTP client become SSE events become chunks. Demand
     * flows from the subscriber to the line subscription one line at a time, so a slow reader
     * slows the provider's socket instead of filling memory.
     */
    private final class ChunkStream implements Flow.Subscription, Flow.Subscriber<String> {

        private final List<URI> bases;
        private final Function<URI, HttpRequest> request;
        private final Duration headersTimeout;
        private final ErrorReader errors;
        private final StreamEvents events;
        private final Flow.Subscriber<? super JsonObject> downstream;
        private final SseParser parser = new SseParser(maxResponseBytes);
        private final AtomicLong demand = new AtomicLong();
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Flow.Subscription lines;
        private volatile CompletableFuture<?> exchange;
        private boolean waitingForLine;
        /** Chunks an event yielded beyond the subscriber's demand; the end waits until they are taken. */
        private final java.util.ArrayDeque<JsonObject> pending = new java.util.ArrayDeque<>();
        private boolean ending;

        ChunkStream(List<URI> bases, Function<URI, HttpRequest> request, Duration headersTimeout, ErrorReader errors,
                    StreamEvents events, Flow.Subscriber<? super JsonObject> downstream) {
            this.bases = bases;
            this.request = request;
            this.headersTimeout = headersTimeout;
            this.errors = errors;
            this.events = events;
            this.downstream = downstream;
        }

        void start() {
            downstream.onSubscribe(this);
            send(0);
        }

        private void send(int index) {
            if (done.get()) {
                return;
            }
            AtomicBoolean responded = new AtomicBoolean();
            CompletableFuture<HttpResponse<String>> sent;
            try {
                sent = client.sendAsync(request.apply(bases.get(index)), info -> {
                    responded.set(true);
                    return info.statusCode() / 100 == 2
                            ? HttpResponse.BodySubscribers.fromLineSubscriber(this, s -> null, StandardCharsets.UTF_8, null)
                            : new BoundedBody(maxResponseBytes);
                });
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            exchange = sent;
            sent.whenComplete((response, error) -> {
                try {
                    if (error != null) {
                        if (!responded.get() && index + 1 < bases.size() && !done.get() && Transport.unreachable(error)) {
                            LOG.log(Level.INFO, "{0} cannot be reached ({1}); trying the alternate host {2}",
                                    bases.get(index).getHost(), Transport.failure(error, headersTimeout).failure().message(),
                                    bases.get(index + 1).getHost());
                            send(index + 1);
                        } else {
                            fail(Transport.failure(error, headersTimeout));
                        }
                    } else if (response.statusCode() / 100 != 2) {
                        fail(errors.read(response.statusCode(), response.body(), response.headers()));
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
            demand.getAndAdd(n);
            flush();
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

        /** Hands pending chunks to the subscriber while it wants them, then finishes or reads on. */
        private synchronized void flush() {
            while (demand.get() > 0 && !pending.isEmpty() && !done.get()) {
                demand.decrementAndGet();
                downstream.onNext(pending.poll());
            }
            if (pending.isEmpty() && ending) {
                complete();
            } else {
                pull();
            }
        }

        private synchronized void pull() {
            Flow.Subscription s = lines;
            if (s != null && !waitingForLine && pending.isEmpty() && !ending && demand.get() > 0 && !done.get()) {
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
            flush();
        }

        private void handle(SseParser.Event event) {
            List<JsonObject> chunks;
            try {
                chunks = events.onEvent(event);
            } catch (ProviderException e) {
                fail(e);
                return;
            }
            synchronized (this) {
                pending.addAll(chunks);
                ending |= events.done();
            }
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
            if (events.completeAtEnd()) {
                // a finished answer without its end marker is complete (some hosts omit it)
                synchronized (this) {
                    ending = true;
                }
                flush();
            } else {
                fail(new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION,
                        "the stream ended before the provider finished the answer")));
            }
        }

        private void complete() {
            if (done.compareAndSet(false, true)) {
                Flow.Subscription s = lines;
                if (s != null) {
                    s.request(Long.MAX_VALUE); // drain what follows the end marker so the connection can be reused
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
