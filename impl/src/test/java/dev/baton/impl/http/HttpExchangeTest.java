package dev.baton.impl.http;

import dev.baton.FailureKind;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.openai.OpenAiProtocol;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderTransport;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transport's own promises, over loopback: the headers timeout, the body limit and flow control. */
class HttpExchangeTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final OpenAiProtocol openAi = new OpenAiProtocol(Adapters.context(EngineFixture.HTTP, 8 * 1024 * 1024, new Redactor(List.of()), Clock.systemUTC()));

    private static Request call(URI base, boolean stream) {
        String body = "{\"model\":\"m\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
        return OpenAiProtocol.request(URI.create(base + "/chat/completions"),
                jakarta.json.Json.createReader(new java.io.StringReader(body)).readObject(), stream, Map.of(), Map.of());
    }

    private ProviderException jsonFails(HttpExchange http, Duration headersTimeout) {
        URI base = URI.create(sim.baseUrl("a"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> http.json(List.of(base),
                b -> call(b, false), headersTimeout, openAi::failure).get(10, TimeUnit.SECONDS));
        return assertInstanceOf(ProviderException.class, e.getCause());
    }

    @Test
    void noHeadersInTimeIsATimeout() {
        sim.account("a").enqueue(Behavior.noResponse());

        ProviderException failure = jsonFails(new HttpExchange(EngineFixture.HTTP, 1 << 20), Duration.ofMillis(300));

        assertEquals(FailureKind.TIMEOUT, failure.failure().kind());
        assertEquals("no response headers within 300ms", failure.failure().message());
    }

    @Test
    void aBodyPastTheLimitIsAServerError() {
        ProviderException failure = jsonFails(new HttpExchange(EngineFixture.HTTP, 100), Duration.ofSeconds(5));

        assertEquals(FailureKind.SERVER_ERROR, failure.failure().kind());
        assertTrue(failure.failure().message().contains("larger than 100 bytes"), failure.failure().message());
    }

    /**
     * A subscriber that took one chunk and wants no more stops the reads from the provider: its writes stall once
     * the socket buffers are full, far short of the whole stream. Taking the rest lets the stream finish.
     */
    @Test
    void aSlowReaderStopsReadsFromTheProvider() throws Exception {
        int events = 32 * 1024;
        String event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + "x".repeat(1000) + "\"}}]}\n\n";
        long total = (long) events * event.length();
        AtomicLong written = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread provider = new Thread(() -> serveStream(server, event, events, written), "slow-reader-provider");
            provider.setDaemon(true);
            provider.start();
            URI base = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1");
            Taker taker = new Taker();

            new HttpExchange(EngineFixture.HTTP, 1 << 20).stream(List.of(base), b -> call(b, true),
                    Duration.ofSeconds(5), openAi::failure, openAi::events).subscribe(taker);
            long stalled = awaitStall(written);

            assertEquals(1, taker.taken.get());
            assertTrue(stalled < total / 2, "the provider wrote " + stalled + " of " + total + " bytes to a reader"
                    + " that took one chunk");
            taker.subscription.request(Long.MAX_VALUE);
            taker.done.get(30, TimeUnit.SECONDS);
            assertEquals(events, taker.taken.get());
        }
    }

    /** An adapter's own framing gets the body's bytes and the transport's limit, and its events become chunks. */
    @Test
    void anAdaptersFramingSplitsTheStream() throws Exception {
        sim.account("a").enqueue(Behavior.reply("one two three"));
        List<Long> limits = new java.util.concurrent.CopyOnWriteArrayList<>();
        Taker taker = new Taker();

        new HttpExchange(EngineFixture.HTTP, 1 << 20).stream(List.of(URI.create(sim.baseUrl("a"))),
                b -> call(b, true), Duration.ofSeconds(5), openAi::failure, openAi::events,
                max -> { limits.add(max); return new BlankLineFraming(max); }).subscribe(taker);
        taker.subscription.request(Long.MAX_VALUE);
        taker.done.get(10, TimeUnit.SECONDS);

        assertEquals(List.of(1L << 20), limits);
        assertEquals(4, taker.taken.get()); // the role chunk's empty content, then a chunk per word
    }

    /** A framing's event past the limit fails the stream as an SSE event past it does. */
    @Test
    void aFramedEventPastTheLimitIsAServerError() throws Exception {
        sim.account("a").enqueue(Behavior.reply("x".repeat(500)));
        Taker taker = new Taker();

        new HttpExchange(EngineFixture.HTTP, 200).stream(List.of(URI.create(sim.baseUrl("a"))),
                b -> call(b, true), Duration.ofSeconds(5), openAi::failure, openAi::events, BlankLineFraming::new)
                .subscribe(taker);
        taker.subscription.request(Long.MAX_VALUE);
        ExecutionException e = assertThrows(ExecutionException.class, () -> taker.done.get(10, TimeUnit.SECONDS));

        ProviderException failure = assertInstanceOf(ProviderException.class, e.getCause());
        assertEquals(FailureKind.SERVER_ERROR, failure.failure().kind());
        assertTrue(failure.failure().message().contains("200"), failure.failure().message());
    }

    /** Events as blocks ending in a blank line, each one {@code data: } line: SSE reduced, framed by hand. */
    private static final class BlankLineFraming implements ProviderTransport.EventFraming {
        private final long max;
        private final StringBuilder block = new StringBuilder();

        BlankLineFraming(long max) {
            this.max = max;
        }

        @Override
        public void feed(java.nio.ByteBuffer data, java.util.function.Consumer<ProviderTransport.Event> sink) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            block.append(new String(bytes, StandardCharsets.UTF_8));
            int end;
            while ((end = block.indexOf("\n\n")) >= 0) {
                String event = block.substring(0, end);
                block.delete(0, end + 2);
                checkLimit(event.length());
                sink.accept(new ProviderTransport.Event(null, event.substring("data: ".length())));
            }
            checkLimit(block.length());
        }

        private void checkLimit(long length) {
            if (length > max) {
                throw new IllegalStateException("an event is larger than " + max + " bytes");
            }
        }

        @Override
        public void finish(java.util.function.Consumer<ProviderTransport.Event> sink) {
        }
    }

    /** Waits until the provider has written nothing for half a second; returns what it wrote by then. */
    private static long awaitStall(AtomicLong written) throws InterruptedException {
        long last = -1;
        while (written.get() != last) {
            last = written.get();
            Thread.sleep(500);
        }
        return last;
    }

    private static void serveStream(ServerSocket server, String event, int events, AtomicLong written) {
        try (Socket socket = server.accept()) {
            socket.setSendBufferSize(64 * 1024);
            var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            int length = 0;
            for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring("content-length:".length()).strip());
                }
            }
            in.skip(length);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < events; i++) {
                out.write(bytes);
                written.addAndGet(bytes.length);
            }
            out.write("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
                    .getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            // the client went away
        }
    }

    /** Takes one chunk, then only what it is told to. */
    private static final class Taker implements Flow.Subscriber<JsonObject> {
        final AtomicInteger taken = new AtomicInteger();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        volatile Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(JsonObject item) {
            if (item.getJsonArray("choices").getJsonObject(0).getJsonObject("delta").containsKey("content")) {
                taken.incrementAndGet();
            }
        }

        @Override
        public void onError(Throwable throwable) {
            done.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }
}
