package dev.baton.testkit;

import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One request as the simulator received it, with header names in lower case. {@code query} is the raw query string
 * of the request target (without {@code ?}), or null when it had none.
 *
 * <p>Instances are immutable and thread-safe; the client-disconnect signal is the only state that changes later.
 */
public record RecordedRequest(String account, String method, String path, Map<String, List<String>> headers,
        String body, Instant receivedAt, String query) {

    /*
     * A record cannot carry the mutable disconnect signal itself. The simulator stamps every request it records with a
     * strictly increasing instant, so recorded requests never equal one another and a weak map can key on them.
     */
    private static final Map<RecordedRequest, CountDownLatch> DISCONNECTS =
            Collections.synchronizedMap(new WeakHashMap<>());
    private static final AtomicReference<Instant> LAST_STAMP = new AtomicReference<>(Instant.EPOCH);

    public RecordedRequest {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(receivedAt, "receivedAt");
        Objects.requireNonNull(headers, "headers");
        Map<String, List<String>> lower = new TreeMap<>();
        headers.forEach((name, values) ->
                lower.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>()).addAll(values));
        lower.replaceAll((name, values) -> List.copyOf(values));
        headers = Collections.unmodifiableMap(lower);
    }

    /** A request whose target had no query string. */
    public RecordedRequest(String account, String method, String path, Map<String, List<String>> headers, String body,
            Instant receivedAt) {
        this(account, method, path, headers, body, receivedAt, null);
    }

    static RecordedRequest arrived(String account, String method, String path, String query,
            Map<String, List<String>> headers, String body) {
        Instant stamp = LAST_STAMP.updateAndGet(last -> {
            Instant now = Instant.now();
            return now.isAfter(last) ? now : last.plusNanos(1);
        });
        RecordedRequest request = new RecordedRequest(account, method, path, headers, body, stamp, query);
        DISCONNECTS.put(request, new CountDownLatch(1));
        return request;
    }

    /** The first value of a header, matched case-insensitively. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /**
     * The first value of a query parameter, percent-decoded, e.g. {@code queryParameter("api-version")} of an Azure
     * OpenAI request.
     */
    public Optional<String> queryParameter(String name) {
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (key.equals(name)) {
                return Optional.of(eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    /** The body parsed as a JSON object; throws {@link jakarta.json.JsonException} when it is not one. */
    public JsonObject json() {
        try (var reader = JsonSupport.JSON.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    /** Whether the client closed the connection while this request's response was pending, stalled or streaming. */
    public boolean clientDisconnected() {
        CountDownLatch latch = DISCONNECTS.get(this);
        return latch != null && latch.getCount() == 0;
    }

    /** Waits until {@link #clientDisconnected()} turns true; returns false if the timeout passes first. */
    public boolean awaitClientDisconnect(Duration timeout) throws InterruptedException {
        CountDownLatch latch = DISCONNECTS.get(this);
        return latch != null && latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    void markClientDisconnected() {
        CountDownLatch latch = DISCONNECTS.get(this);
        if (latch != null) {
            latch.countDown();
        }
    }
}
