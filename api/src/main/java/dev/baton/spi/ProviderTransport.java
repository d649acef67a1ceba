package dev.baton.spi;

import jakarta.json.JsonObject;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Baton's HTTP client, as adapters see it: one JSON exchange or one server-sent-event stream per attempt, sent on
 * Baton's own I/O threads. Nothing here blocks or starts a thread. Response bodies are bounded by
 * {@code baton.limits.max-response-bytes}; cancelling the future or the subscription aborts the exchange; a host
 * that cannot be reached before a response status arrived is replaced by the next of {@code bases}, inside the same
 * exchange; connection failures and timeouts become {@link ProviderException}s with a transport failure kind.
 *
 * <p>Callbacks ({@link ErrorReader}, {@link StreamEvents}) and whatever the results complete run on an I/O thread:
 * they must not block. Thread-safe.
 */
public interface ProviderTransport {

    /**
     * Sends the request {@code request} builds for the first of {@code bases} and completes with the 2xx body parsed
     * as a JSON object; any other status fails with what {@code errors} makes of it.
     *
     * @param bases          the target's hosts in the order to try them ({@link ProviderTarget#baseUrls()})
     * @param headersTimeout how long to wait for the response status and headers
     */
    CompletableFuture<JsonObject> json(List<URI> bases, Function<URI, Request> request, Duration headersTimeout,
                                       ErrorReader errors);

    /**
     * A cold publisher: subscribing sends the request, and each server-sent event of a 2xx body goes through a
     * fresh {@code events} reader, whose objects are emitted. The stream completes when the reader says the answer is
     * complete and fails otherwise.
     */
    Flow.Publisher<JsonObject> stream(List<URI> bases, Function<URI, Request> request, Duration headersTimeout,
                                      ErrorReader errors, Supplier<StreamEvents> events);

    /**
     * As {@link #stream(List, Function, Duration, ErrorReader, Supplier)}, for a provider whose stream body is not
     * server-sent events: {@code framing} makes, for each stream, the splitter of its body into {@link Event}s, given
     * {@code baton.limits.max-response-bytes} as the largest event it may hold.
     */
    Flow.Publisher<JsonObject> stream(List<URI> bases, Function<URI, Request> request, Duration headersTimeout,
                                      ErrorReader errors, Supplier<StreamEvents> events,
                                      LongFunction<EventFraming> framing);

    /**
     * One HTTP request as an adapter builds it.
     *
     * @param headers names and values, in order; the content type is one of them
     */
    record Request(String method, URI uri, Map<String, String> headers, byte[] body) {

        /** A POST of {@code body} as UTF-8. */
        public static Request post(URI uri, Map<String, String> headers, String body) {
            return new Request("POST", uri, headers, body.getBytes(StandardCharsets.UTF_8));
        }

        /** Method and URI only: the headers carry the provider key and the body the prompt, and neither may reach a log. */
        @Override
        public String toString() {
            return method + " " + uri;
        }
    }

    /** Turns a provider's error response (any status but 2xx) into a classified failure. */
    @FunctionalInterface
    interface ErrorReader {

        ProviderException read(int status, String body, ResponseHeaders headers);
    }

    /** A response's headers; names match regardless of case. */
    @FunctionalInterface
    interface ResponseHeaders {

        /** The first value of header {@code name}, if it was sent. */
        Optional<String> firstValue(String name);
    }

    /** One server-sent event: its {@code event:} name (or {@code null}) and its {@code data:} lines joined. */
    record Event(String event, String data) {
    }

    /**
     * Splits a stream body into events, as bytes arrive in any split (AWS's binary event stream, for example). One
     * instance per stream; called from one I/O thread at a time; must not block.
     *
     * <p>An event larger than the limit it was made with, or bytes that cannot be framed, throw
     * {@link IllegalStateException} (the attempt then fails as {@code server_error}, naming the message); a provider's
     * error frame may throw {@link ProviderException} instead.
     */
    interface EventFraming {

        /** Hands {@code sink} every event {@code data} completes, consuming all of {@code data}. */
        void feed(ByteBuffer data, Consumer<Event> sink);

        /** The body ended: hands {@code sink} what is left if that makes an event; a partial event is dropped. */
        void finish(Consumer<Event> sink);
    }

    /**
     * A provider's stream vocabulary: turns its events into OpenAI {@code chat.completion.chunk} objects and says
     * when the answer is complete. One instance per stream; called from one thread at a time.
     */
    interface StreamEvents {

        /**
         * The chunks one event yields, possibly none. A malformed event should yield none (skipped, never
         * forwarded); an error event throws {@link ProviderException}.
         */
        List<JsonObject> onEvent(Event event);

        /** The provider said the stream is over ({@code [DONE]}, {@code message_stop}): stop reading. */
        boolean done();

        /** Whether the body ending now leaves a complete answer (for example a {@code finish_reason} was seen). */
        boolean completeAtEnd();
    }
}
