package dev.baton.impl.http;

import dev.baton.wire.Lines;
import dev.baton.wire.RawJsonObject;
import dev.baton.wire.SseParser;
import dev.baton.FailureKind;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTransport.ErrorReader;
import dev.baton.spi.ProviderTransport.Event;
import dev.baton.spi.ProviderTransport.EventFraming;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import dev.baton.spi.ProviderTransport.StreamEvents;
import dev.baton.spi.ProviderTransport;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The HTTP half every adapter shares, the {@link ProviderTransport} of the SPI: one JSON exchange, or one SSE stream turned into chunks by a
 * provider's {@link StreamEvents}. Bodies are bounded, cancelling aborts the exchange, and
 * failures are classified by the provider's {@link ErrorReader} or by {@link Transport}. A connection's
 * alternate hosts are tried here, inside the one exchange, when a host cannot be reached.
 *
 * <p>Responses are read on the client's I/O threads, and what they complete (parsing, the engine's next step, a
 * subscriber's {@code onNext}) runs there too: none of it may block. Thread-safe.
 */
public final class HttpExchange implements ProviderTransport {

    private static final System.Logger LOG = System.getLogger(HttpExchange.class.getName());

    private final BatonHttpClient client;
    private final long maxResponseBytes;

    public HttpExchange(BatonHttpClient client, long maxResponseBytes) {
        this.client = client;
        this.maxResponseBytes = maxResponseBytes;
    }

    /**
     * Sends the request {@code request} builds for the first of {@code bases}; when that host cannot be reached
     * (see {@link Transport#unreachable}) and no response status arrived, the next base is tried, all inside this
     * one exchange. Parses a 2xx body as JSON. Cancelling the future aborts the exchange.
     */
    @Override
    public CompletableFuture<JsonObject> json(List<URI> bases, Function<URI, Request> request,
                                              Duration headersTimeout, ErrorReader errors) {
        JsonExchange exchange = new JsonExchange(bases, request, headersTimeout, errors);
        exchange.send(0);
        return exchange.result;
    }

    /**
     * A cold publisher: subscribing sends the request built for the first of {@code bases} and streams the chunks
     * {@code events} yields. A host that cannot be reached before any response status arrived is replaced by the
     * next base, inside the same exchange; once a status arrived, nothing moves.
     */
    @Override
    public Flow.Publisher<JsonObject> stream(List<URI> bases, Function<URI, Request> request,
                                             Duration headersTimeout, ErrorReader errors,
                                             Supplier<StreamEvents> events) {
        return subscriber -> new ChunkStream(bases, request, headersTimeout, errors, events.get(), null, subscriber)
                .start();
    }

    /** As the SSE stream, with the body split into events by a framing of {@code framing}'s making. */
    @Override
    public Flow.Publisher<JsonObject> stream(List<URI> bases, Function<URI, Request> request,
                                             Duration headersTimeout, ErrorReader errors,
                                             Supplier<StreamEvents> events, LongFunction<EventFraming> framing) {
        Objects.requireNonNull(framing, "framing");
        return subscriber -> new ChunkStream(bases, request, headersTimeout, errors, events.get(),
                Objects.requireNonNull(framing.apply(maxResponseBytes), "framing"), subscriber).start();
    }

    /** Reads one response body on an I/O thread. */
    private interface Body {

        /** The body is about to be read; {@code window} paces the socket. */
        default void window(ResponseReader.Window window) {
            window.grant(Integer.MAX_VALUE); // bounded by the body's own limit instead
        }

        void data(ByteBuffer data) throws IOException;

        /** The body was read whole. */
        void done();
    }

    /**
     * One exchange over a connection's hosts: sends to the first, moves on while a host cannot be reached before a
     * status arrived, and ends once. Subclasses read a 2xx body and deliver the outcome.
     */
    private abstract class Exchange {

        private final List<URI> bases;
        private final Function<URI, Request> request;
        private final Duration headersTimeout;
        private final ErrorReader errors;
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile Host current;

        Exchange(List<URI> bases, Function<URI, Request> request, Duration headersTimeout, ErrorReader errors) {
            this.bases = bases;
            this.request = request;
            this.headersTimeout = headersTimeout;
            this.errors = errors;
        }

        /** The reader of a 2xx body. */
        abstract Body successBody(int status);

        /** Hands the exchange's failure to its caller; called once. */
        abstract void deliverFailure(Throwable error);

        final void send(int index) {
            Host host = new Host(index);
            current = host;
            if (isEnded()) {
                return;
            }
            try {
                host.timer = client.schedule(host::headersTimedOut, headersTimeout);
                host.sent = client.send(request.apply(bases.get(index)), host);
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            if (isEnded()) {
                host.abort(); // cancelled while it was being sent
            }
        }

        final boolean isEnded() {
            return ended.get();
        }

        /** Ends the exchange, leaving its connection to finish the body; false when it had already ended. */
        final boolean finish() {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            Host host = current;
            if (host != null) {
                host.cancelTimer();
            }
            return true;
        }

        /** Ends the exchange with {@code error} and aborts it. */
        final void fail(Throwable error) {
            if (finish()) {
                abort();
                deliverFailure(error);
            }
        }

        /** Ends and aborts the exchange without a word: its caller went away. */
        public final void cancel() {
            if (finish()) {
                abort();
            }
        }

        private void abort() {
            Host host = current;
            if (host != null) {
                host.abort();
            }
        }

        /** One host's try: reads its response on an I/O thread, and hears how the exchange ended. */
        private final class Host implements ResponseReader {

            private final int index;
            private volatile boolean responded;
            private volatile Scheduler.Scheduled timer;
            private volatile BatonHttpClient.InFlight sent;
            private Body body;

            Host(int index) {
                this.index = index;
            }

            void headersTimedOut() {
                if (!responded) {
                    fail(Transport.headersTimeout(headersTimeout));
                }
            }

            void cancelTimer() {
                Scheduler.Scheduled t = timer;
                if (t != null) {
                    t.cancel();
                }
            }

            void abort() {
                cancelTimer();
                BatonHttpClient.InFlight s = sent;
                if (s != null) {
                    s.abort(); // closes the connection
                }
            }

            @Override
            public void headers(int status, ResponseHeaders headers, ResponseReader.Window window) {
                responded = true;
                cancelTimer();
                body = status / 100 == 2 ? successBody(status) : new ErrorBody(status, headers);
                body.window(window);
            }

            @Override
            public void body(ByteBuffer data) throws IOException {
                try (ReadBurst.Read ignored = ReadBurst.read()) {
                    body.data(data);
                }
            }

            @Override
            public void end() {
                try (ReadBurst.Read ignored = ReadBurst.read()) {
                    body.done();
                } catch (RuntimeException bug) {
                    fail(bug); // never leave the caller waiting
                }
            }

            @Override
            public void failed(Exception error) {
                exchangeFailed(error);
            }

            private void exchangeFailed(Exception error) {
                cancelTimer();
                if (!responded && index + 1 < bases.size() && !isEnded() && Transport.unreachable(error)) {
                    LOG.log(Level.INFO, "{0} cannot be reached ({1}); trying the alternate host {2}",
                            bases.get(index).getHost(), Transport.failure(error).failure().message(),
                            bases.get(index + 1).getHost());
                    send(index + 1);
                } else {
                    fail(Transport.failure(error));
                }
            }
        }

        /** A non-2xx body, bounded, read whole and classified by the provider's {@link ErrorReader}. */
        private final class ErrorBody implements Body {
            private final int status;
            private final ResponseHeaders headers;
            private final BoundedBody bytes = new BoundedBody(maxResponseBytes);

            ErrorBody(int status, ResponseHeaders headers) {
                this.status = status;
                this.headers = headers;
            }

            @Override
            public void data(ByteBuffer data) throws IOException {
                bytes.add(data);
            }

            @Override
            public void done() {
                ProviderException failure = errors.read(status, bytes.text(), headers);
                if (finish()) {
                    deliverFailure(failure);
                }
            }
        }
    }

    /** A whole answer: a 2xx body read up to the limit and parsed as JSON. */
    private final class JsonExchange extends Exchange {

        final CompletableFuture<JsonObject> result = new CompletableFuture<>();

        JsonExchange(List<URI> bases, Function<URI, Request> request, Duration headersTimeout, ErrorReader errors) {
            super(bases, request, headersTimeout, errors);
            // Cancelling the attempt must abort the exchange, not only the future.
            result.whenComplete((r, t) -> {
                if (result.isCancelled()) {
                    cancel();
                }
            });
        }

        @Override
        Body successBody(int status) {
            BoundedBody bytes = new BoundedBody(maxResponseBytes);
            return new Body() {
                @Override
                public void data(ByteBuffer data) throws IOException {
                    bytes.add(data);
                }

                @Override
                public void done() {
                    if (!finish()) {
                        return;
                    }
                    try {
                        result.complete(RawJsonObject.parse(bytes.text()));
                    } catch (JsonException | ClassCastException | IllegalStateException e) {
                        deliverFailure(new ProviderException(new ProviderFailure(FailureKind.SERVER_ERROR, status, null,
                                null, "the provider answered " + status + " with a body that is not JSON", null)));
                    }
                }
            };
        }

        @Override
        void deliverFailure(Throwable error) {
            result.completeExceptionally(error);
        }
    }

    /**
     * One streamed exchange: body bytes become lines become SSE events become chunks (or, with an adapter's
     * {@link EventFraming}, bytes become its events become chunks). Flow control reaches the
     * socket: the bytes read are given back to the client's read window (64 KiB) only once every chunk parsed from
     * them was taken and more are wanted, so a slow reader stops reads from the provider instead of filling memory.
     * Signals to the subscriber go out of one drain loop, so they never overlap.
     */
    private final class ChunkStream extends Exchange implements Flow.Subscription, Body {

        private final StreamEvents events;
        private final Flow.Subscriber<? super JsonObject> downstream;
        /** Null for server-sent events, read with {@link #lines} and {@link #parser}, which are null otherwise. */
        private final EventFraming framing;
        private final Lines lines;
        private final SseParser parser;
        private final Queue<JsonObject> pending = new ConcurrentLinkedQueue<>();
        private final AtomicLong demand = new AtomicLong();
        private final AtomicInteger wip = new AtomicInteger();
        /** Body bytes read and not yet given back to the read window. */
        private final AtomicInteger unacknowledged = new AtomicInteger();
        private volatile ResponseReader.Window window;
        /** The provider said the answer is over, or what it sent ends it: the chunks pending are the last. */
        private volatile boolean ending;
        /** What follows the last chunks: {@code null} for the end of the answer, else the failure that ends it. */
        private volatile ProviderException last;
        private volatile Throwable error;
        /** Touched inside the drain loop only. */
        private boolean signalled;
        /**
         * The thread running the drain loop, written by it only: a request made from inside the loop (a subscriber
         * asking for the next chunk as it takes one) only adds demand, which the loop reads after each chunk. No other
         * thread can read its own identity here, so the field needs no fence.
         */
        private Thread draining;

        ChunkStream(List<URI> bases, Function<URI, Request> request, Duration headersTimeout, ErrorReader errors,
                    StreamEvents events, EventFraming framing, Flow.Subscriber<? super JsonObject> downstream) {
            super(bases, request, headersTimeout, errors);
            this.events = events;
            this.framing = framing;
            this.lines = framing == null ? new Lines(maxResponseBytes) : null;
            this.parser = framing == null ? new SseParser(maxResponseBytes) : null;
            this.downstream = downstream;
        }

        void start() {
            downstream.onSubscribe(this);
            send(0);
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                fail(new IllegalArgumentException("request(" + n + "): demand must be positive"));
                return;
            }
            demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            if (draining != Thread.currentThread()) {
                drain();
            }
        }

        @Override
        Body successBody(int status) {
            return this;
        }

        @Override
        public void window(ResponseReader.Window window) {
            this.window = window;
            drain();
        }

        @Override
        public void data(ByteBuffer data) {
            unacknowledged.addAndGet(data.remaining());
            if (ending || isEnded()) {
                data.position(data.limit()); // what follows the end marker is read only so the connection is reused
            } else if (framing == null) {
                read(() -> lines.feed(data, this::line));
            } else {
                read(() -> framing.feed(data, this::event));
            }
            drain();
        }

        @Override
        public void done() {
            if (!ending && !isEnded() && framing != null) {
                read(() -> framing.finish(this::event));
            } else if (!ending && !isEnded()) {
                read(() -> {
                    lines.finish(this::line);
                    if (!ending) {
                        Event event = parser.finish();
                        if (event != null) {
                            event(event);
                        }
                    }
                });
            }
            if (!ending && !events.completeAtEnd()) {
                end(new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION,
                        "the stream ended before the provider finished the answer")));
            }
            ending = true; // a finished answer without its end marker is complete (some hosts omit it)
            drain();
        }

        /** Parses what arrived; what ends the answer is queued behind the chunks parsed before it. */
        private void read(Runnable parse) {
            try {
                parse.run();
            } catch (IllegalStateException tooLarge) {
                end(new ProviderException(ProviderFailure.transport(FailureKind.SERVER_ERROR, tooLarge.getMessage())));
            } catch (ProviderException e) {
                end(e);
            }
        }

        private void line(byte[] bytes, int start, int end) {
            if (!ending) {
                Event event = parser.line(bytes, start, end);
                if (event != null) {
                    event(event);
                }
            }
        }

        private void event(Event event) {
            if (ending) {
                return; // a framing's events after the end of the answer
            }
            List<JsonObject> chunks = events.onEvent(event);
            for (int i = 0; i < chunks.size(); i++) { // no iterator: nearly every event is one chunk
                pending.add(chunks.get(i));
            }
            ending = events.done();
        }

        private void end(ProviderException failure) {
            last = failure;
            ending = true;
        }

        @Override
        void deliverFailure(Throwable error) {
            this.error = error;
            drain();
        }

        /** Hands pending chunks over while they are wanted, then the end; reads on once all were taken. */
        private void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            do {
                draining = Thread.currentThread();
                JsonObject chunk;
                while (!isEnded() && demand.get() > 0 && (chunk = pending.poll()) != null) {
                    demand.decrementAndGet();
                    downstream.onNext(chunk);
                }
                if (!signalled && error != null) {
                    signalled = true;
                    downstream.onError(error);
                } else if (!signalled && ending && pending.isEmpty()) {
                    if (last != null) {
                        fail(last); // the error goes out on the next turn of this loop
                    } else if (finish()) {
                        signalled = true;
                        downstream.onComplete();
                    }
                }
                if (isEnded() || pending.isEmpty() && demand.get() > 0) {
                    acknowledge();
                }
                draining = null;
            } while (wip.decrementAndGet() != 0);
        }

        /** Grants the bytes read back to the client's read window, so it reads on. */
        private void acknowledge() {
            ResponseReader.Window w = window;
            if (w == null) {
                return; // no response yet
            }
            int bytes = unacknowledged.getAndSet(0);
            if (bytes > 0) {
                w.grant(bytes);
            }
        }
    }
}
