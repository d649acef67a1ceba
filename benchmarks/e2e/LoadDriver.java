import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The end-to-end benchmark's own load driver and report (run with the Temurin 25 launcher, no build step).
 *
 * <pre>
 * java LoadDriver.java open URL --rate 200 --seconds 20 --body JSON [--auth 'Bearer k'] [--stream]
 *                          [--first TEXT] [--done TEXT]
 * java LoadDriver.java streams URL --count 10000 --ramp 1000 --body JSON [--auth 'Bearer k'] [--http2 N]
 * java LoadDriver.java summarize results.txt
 * </pre>
 *
 * <p>{@code open} is an open-loop, constant-rate driver: request i is due at start + i/rate whether or not earlier
 * ones have answered, and its latency is counted from that scheduled time, so a stalled server (or a stalled
 * driver) shows up as latency instead of silently lowering the offered load (no coordinated omission).
 *
 * <p>A stream counts as an error unless its body holds {@code --done} ({@code data: [DONE]} unless told, as chat
 * completions end; {@code response.completed} for the Responses API). Its time to first byte is taken when the
 * body's first byte arrives, or with {@code --first} when that text has arrived in full: with
 * {@code --first response.output_text.delta}, a Responses stream's first output, where Baton commits its answer,
 * rather than the {@code response.created} event before it.
 *
 * <p>{@code streams} opens N SSE streams at a fixed ramp and holds them until the upstream ends them, counting the
 * peak number open at once and every failure. With {@code --http2 N} the streams go over HTTP/2 (h2c), N to a
 * connection, on the JDK's client: the server then holds one socket a stream (its upstream call), not two.
 *
 * <p>HTTP/1.1 is spoken by hand over plain sockets with virtual threads: little overhead of its own, and full
 * control over what "first byte" means (the first byte of the response body).
 */
public final class LoadDriver {

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: open|streams URL [options] | summarize FILE");
            System.exit(2);
        }
        switch (args[0]) {
            case "open" -> open(new Options(args));
            case "streams" -> streams(new Options(args));
            case "summarize" -> summarize(Path.of(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    // ---- open loop ------------------------------------------------------------------------------------------

    private static void open(Options o) throws InterruptedException {
        double rate = o.number("rate", 200);
        int total = (int) Math.round(rate * o.number("seconds", 20));
        // sent at the same rate but not counted: the driver's own JIT and the first connections settle here
        int warm = (int) Math.round(rate * o.number("warmup-seconds", 2));
        long period = Math.round(1e9 / rate);
        Target target = new Target(o);
        long[] latency = new long[total];
        long[] ttfb = new long[total];
        AtomicInteger ok = new AtomicInteger();
        Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
        AtomicInteger opened = new AtomicInteger();
        long maxLag = 0;

        long start = System.nanoTime() + 50_000_000L;
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = -warm; i < total; i++) {
                long due = start + (i + warm) * period;
                sleepUntil(due);
                if (i >= 0) {
                    maxLag = Math.max(maxLag, System.nanoTime() - due);
                }
                int n = i;
                workers.submit(() -> {
                    Connection c = idle.pollFirst();
                    try {
                        if (c == null) {
                            c = new Connection(target, 30_000);
                            opened.incrementAndGet();
                        }
                        Exchange x = c.exchange(target, target.stream);
                        if (x.reusable) {
                            idle.addFirst(c);
                        } else {
                            c.close();
                        }
                        if (n < 0) {
                            return;
                        }
                        latency[n] = x.end - due;
                        ttfb[n] = x.firstByte - due;
                        if (x.error == null) {
                            ok.incrementAndGet();
                        } else {
                            errors.computeIfAbsent(x.error, k -> new AtomicInteger()).incrementAndGet();
                        }
                    } catch (IOException e) {
                        if (c != null) {
                            c.close();
                        }
                        if (n < 0) {
                            return;
                        }
                        latency[n] = System.nanoTime() - due;
                        ttfb[n] = latency[n];
                        errors.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                });
            }
        } // waits for every request
        idle.forEach(Connection::close);
        double seconds = (System.nanoTime() - start) / 1e9;
        StringBuilder line = new StringBuilder("OPEN");
        kv(line, "sent", total);
        kv(line, "ok", ok.get());
        kv(line, "errors", total - ok.get());
        kv(line, "offered_rps", rate);
        kv(line, "connections", opened.get());
        kv(line, "max_send_lag_us", maxLag / 1000);
        kv(line, "p50_us", percentile(latency, 50) / 1000);
        kv(line, "p90_us", percentile(latency, 90) / 1000);
        kv(line, "p99_us", percentile(latency, 99) / 1000);
        kv(line, "max_us", percentile(latency, 100) / 1000);
        if (target.stream) {
            kv(line, "ttfb_p50_us", percentile(ttfb, 50) / 1000);
            kv(line, "ttfb_p90_us", percentile(ttfb, 90) / 1000);
            kv(line, "ttfb_p99_us", percentile(ttfb, 99) / 1000);
        }
        System.out.println(line);
        if (!errors.isEmpty()) {
            System.err.printf(Locale.ROOT, "errors after %.1f s: %s%n", seconds, errors);
        }
    }

    // ---- many streams ---------------------------------------------------------------------------------------

    private static void streams(Options o) throws InterruptedException {
        int count = (int) o.number("count", 10_000);
        double ramp = o.number("ramp", 1000);
        Target target = new Target(o);
        AtomicInteger open = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        long[] ttfb = new long[count];
        int perConnection = (int) o.number("http2", 0);
        // The HTTP/2 clients' own tasks run on virtual threads, like the streams that call them.
        ExecutorService h2Tasks = Executors.newVirtualThreadPerTaskExecutor();
        HttpClient[] h2 = perConnection > 0
                ? http2Clients(o, (count + perConnection - 1) / perConnection, h2Tasks) : null;
        long start = System.nanoTime();

        Thread progress = Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    return;
                }
                System.err.printf(Locale.ROOT, "t=%.0fs started=%d open=%d ok=%d errors=%d%n",
                        (System.nanoTime() - start) / 1e9, started.get(), open.get(), ok.get(),
                        errors.values().stream().mapToInt(AtomicInteger::get).sum());
            }
        });
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                long due = start + Math.round(i * 1e9 / ramp);
                sleepUntil(due);
                int n = i;
                started.incrementAndGet();
                workers.submit(() -> {
                    // "open" counts from the request until the stream ends: a stream the server has accepted
                    // but not answered yet holds a connection (and maybe a thread) too
                    peak.accumulateAndGet(open.incrementAndGet(), Math::max);
                    try {
                        Exchange x = h2 != null ? http2Stream(h2[n / perConnection], o) : http1Stream(target);
                        ttfb[n] = x.firstByte - due;
                        if (x.error == null) {
                            ok.incrementAndGet();
                        } else {
                            errors.computeIfAbsent(x.error, k -> new AtomicInteger()).incrementAndGet();
                        }
                    } catch (IOException | InterruptedException e) {
                        errors.computeIfAbsent(e.getClass().getSimpleName() + ": " + e.getMessage(),
                                k -> new AtomicInteger()).incrementAndGet();
                    } finally {
                        open.decrementAndGet();
                    }
                });
            }
        }
        progress.interrupt();
        if (h2 != null) {
            for (HttpClient client : h2) {
                client.close();
            }
        }
        h2Tasks.close();
        StringBuilder line = new StringBuilder("STREAMS");
        kv(line, "count", count);
        kv(line, "ok", ok.get());
        kv(line, "errors", count - ok.get());
        kv(line, "peak_open", peak.get());
        kv(line, "seconds", Math.round((System.nanoTime() - start) / 1e9));
        kv(line, "ttfb_p50_us", percentile(ttfb, 50) / 1000);
        kv(line, "ttfb_p99_us", percentile(ttfb, 99) / 1000);
        System.out.println(line);
        if (!errors.isEmpty()) {
            System.out.println("STREAM_ERRORS " + errors);
        }
    }

    private static Exchange http1Stream(Target target) throws IOException {
        try (Connection c = new Connection(target, 120_000)) {
            return c.exchange(target, true);
        }
    }

    /**
     * One HTTP/2 client each for {@code connections} connections, each upgraded from HTTP/1.1 (h2c) by a first GET,
     * one client after the other, so that no stream starts before its connection speaks HTTP/2.
     */
    private static HttpClient[] http2Clients(Options o, int connections, ExecutorService tasks)
            throws InterruptedException {
        URI probe = URI.create(o.url).resolve("../models"); // the gateway's model list: a GET, which upgrades
        HttpClient[] clients = new HttpClient[connections];
        for (int i = 0; i < connections; i++) {
            clients[i] = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).executor(tasks).build();
            try {
                HttpResponse<Void> r = clients[i].send(authorized(HttpRequest.newBuilder(probe), o).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.version() != HttpClient.Version.HTTP_2) {
                    throw new IllegalStateException(
                            probe + " answered " + r.statusCode() + " in " + r.version() + ", not HTTP/2");
                }
            } catch (IOException e) {
                throw new IllegalStateException("GET " + probe + ": " + e, e);
            }
        }
        return clients;
    }

    /**
     * One SSE stream over an HTTP/2 connection: the same checks as over HTTP/1.1, but the 120 s limit is on the
     * response's headers only (the JDK's client has no read timeout for a body).
     */
    private static Exchange http2Stream(HttpClient client, Options o) throws IOException, InterruptedException {
        HttpRequest request = authorized(HttpRequest.newBuilder(URI.create(o.url)), o)
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(o.text("body", null))).build();
        HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
        long firstByte;
        try (InputStream in = r.body()) {
            int b = in.read();
            firstByte = System.nanoTime();
            if (b >= 0) {
                body.write(b);
                in.transferTo(body);
            }
        }
        String done = o.text("done", DONE);
        String error = r.statusCode() != 200 ? "HTTP " + r.statusCode()
                : !body.toString(StandardCharsets.UTF_8).contains(done) ? "stream without " + done : null;
        return new Exchange(firstByte, System.nanoTime(), error, true);
    }

    /** With {@code --auth} as the Authorization header, when given (as over HTTP/1.1). */
    private static HttpRequest.Builder authorized(HttpRequest.Builder request, Options o) {
        String auth = o.text("auth", "");
        return auth.isEmpty() ? request : request.header("Authorization", auth);
    }

    // ---- HTTP/1.1 by hand ----------------------------------------------------------------------------------

    /** How a chat completion stream ends. */
    private static final String DONE = "data: [DONE]";

    /** Where to send, the request's bytes, built once, and what a stream's answer is checked for. */
    private static final class Target {
        final String host;
        final int port;
        final byte[] request;
        final boolean stream;
        /** What the time to first byte waits for; null: the body's first byte. */
        final byte[] first;
        /** What a stream's body must hold to count as complete. */
        final byte[] done;

        Target(Options o) {
            URI uri = URI.create(o.url);
            host = uri.getHost();
            port = uri.getPort();
            stream = o.has("stream");
            first = o.has("first") ? o.text("first", null).getBytes(StandardCharsets.UTF_8) : null;
            done = o.text("done", DONE).getBytes(StandardCharsets.UTF_8);
            byte[] body = o.text("body", null).getBytes(StandardCharsets.UTF_8);
            String auth = o.text("auth", "");
            String head = "POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nContent-Type: application/json\r\nAccept: " + (stream ? "text/event-stream" : "application/json")
                    + (auth.isEmpty() ? "" : "\r\nAuthorization: " + auth)
                    + "\r\nContent-Length: " + body.length + "\r\n\r\n";
            byte[] h = head.getBytes(StandardCharsets.US_ASCII);
            request = Arrays.copyOf(h, h.length + body.length);
            System.arraycopy(body, 0, request, h.length, body.length);
        }
    }

    /** What one request/response gave: times from System.nanoTime(), an error or null. */
    private record Exchange(long firstByte, long end, String error, boolean reusable) {
    }

    private static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Connection(Target target, int timeoutMillis) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMillis);
            socket.connect(new InetSocketAddress(target.host, target.port), timeoutMillis);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }

        Exchange exchange(Target target, boolean stream) throws IOException {
            out.write(target.request);
            out.flush();
            String status = line(in);
            if (status == null) {
                throw new IOException("connection closed before a status line");
            }
            int code = Integer.parseInt(status.split(" ", 3)[1]);
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(h.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    close = true;
                }
            }
            Body body = new Body(stream ? target.first : null);
            if (chunked) {
                while (true) {
                    String size = line(in);
                    if (size == null) {
                        throw new IOException("connection closed inside a chunked body");
                    }
                    int n = Integer.parseInt(size.split(";", 2)[0].trim(), 16);
                    if (n == 0) {
                        for (String t = line(in); t != null && !t.isEmpty(); t = line(in)) {
                            // trailers
                        }
                        break;
                    }
                    body.read(in, n);
                    line(in);
                }
            } else if (length >= 0) {
                body.read(in, length);
            } else { // until the server closes
                body.read(in, -1);
                close = true;
            }
            long end = System.nanoTime();
            String error = null;
            if (code != 200) {
                error = "HTTP " + code;
            } else if (stream && body.indexOf(target.done) < 0) {
                error = "stream without " + new String(target.done, StandardCharsets.UTF_8);
            }
            return new Exchange(body.firstAt != 0 ? body.firstAt : end, end, error, !close);
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }

    /**
     * An answer's body as it arrives, and when its first byte came, or with a marker, when the marker had come in
     * full: the time to first byte is taken as soon as a read returns it.
     */
    private static final class Body extends ByteArrayOutputStream {
        private final byte[] first;
        private final byte[] piece = new byte[16 * 1024];
        /** System.nanoTime() when the first byte or the marker arrived; 0 before. */
        long firstAt;

        Body(byte[] first) {
            super(4096);
            this.first = first;
        }

        /** Reads {@code n} bytes of the body as they arrive; -1: up to the end of the connection. */
        void read(InputStream in, long n) throws IOException {
            while (n != 0) {
                int r = in.read(piece, 0, n < 0 ? piece.length : (int) Math.min(n, piece.length));
                if (r < 0) {
                    if (n < 0) {
                        return;
                    }
                    throw new IOException("connection closed inside a body");
                }
                int from = count;
                write(piece, 0, r);
                if (firstAt == 0 && (first == null || indexOf(first, Math.max(0, from - first.length + 1)) >= 0)) {
                    firstAt = System.nanoTime();
                }
                if (n > 0) {
                    n -= r;
                }
            }
        }

        int indexOf(byte[] text) {
            return indexOf(text, 0);
        }

        private int indexOf(byte[] text, int from) {
            outer:
            for (int i = from; i <= count - text.length; i++) {
                for (int j = 0; j < text.length; j++) {
                    if (buf[i + j] != text[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                int n = line.length();
                return n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
            }
            line.append((char) b);
        }
        return line.isEmpty() ? null : line.toString();
    }

    // ---- report --------------------------------------------------------------------------------------------

    /**
     * Reads lines of {@code key=value} pairs (round, case, mode plus the numbers a run printed) and prints, per
     * case and metric, the median over rounds of direct and through Baton, their ratio and the difference.
     */
    private static void summarize(Path file) throws IOException {
        // case -> metric -> mode -> values in round order
        Map<String, Map<String, Map<String, List<Double>>>> data = new LinkedHashMap<>();
        Map<String, Map<String, Double>> errors = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            Map<String, String> kv = new HashMap<>();
            for (String part : line.trim().split("\\s+")) {
                int eq = part.indexOf('=');
                if (eq > 0) {
                    kv.put(part.substring(0, eq), part.substring(eq + 1));
                }
            }
            String name = kv.get("case");
            String mode = kv.get("mode");
            if (name == null || mode == null) {
                continue;
            }
            for (String metric : List.of("rps", "p50_us", "p90_us", "p99_us", "ttfb_p50_us", "ttfb_p90_us",
                    "ttfb_p99_us", "server_cpu_us")) {
                if (kv.containsKey(metric) && (metric.equals("rps") || metric.equals("server_cpu_us")
                        || !name.startsWith("closed"))) {
                    data.computeIfAbsent(name, k -> new LinkedHashMap<>()).computeIfAbsent(metric,
                            k -> new TreeMap<>()).computeIfAbsent(mode, k -> new ArrayList<>())
                            .add(Double.parseDouble(kv.get(metric)));
                }
            }
            double bad = Double.parseDouble(kv.getOrDefault("errors", "0"))
                    + Double.parseDouble(kv.getOrDefault("non2xx", "0"));
            errors.computeIfAbsent(name, k -> new TreeMap<>()).merge(mode, bad, Double::sum);
        }
        // The sides Baton is compared with besides direct, those this run measured: the floor and the relay.
        List<String> references = new ArrayList<>();
        for (String side : List.of("floor", "nettyrelay")) {
            if (data.values().stream().anyMatch(metrics -> metrics.values().stream().anyMatch(m -> m.containsKey(side)))) {
                references.add(side);
            }
        }
        header("| case | metric | direct | Baton | Baton/direct | added by Baton | Baton/direct per round |",
                "|---|---|---:|---:|---:|---:|---|", references, "/");
        for (var byCase : data.entrySet()) {
            for (var byMetric : byCase.getValue().entrySet()) {
                List<Double> direct = byMetric.getValue().getOrDefault("direct", List.of());
                List<Double> baton = byMetric.getValue().getOrDefault("baton", List.of());
                if (direct.isEmpty() || baton.isEmpty()) {
                    continue;
                }
                double d = median(direct);
                double b = median(baton);
                boolean rps = byMetric.getKey().equals("rps");
                // for throughput, "added" is machine time per request: 1/rps through Baton minus 1/rps direct
                String added = rps ? String.format(Locale.ROOT, "%,.0f µs/req", 1e6 / b - 1e6 / d)
                        : String.format(Locale.ROOT, "%+,.0f µs", b - d);
                StringBuilder perRound = new StringBuilder();
                for (int i = 0; i < Math.min(direct.size(), baton.size()); i++) {
                    perRound.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.3f",
                            baton.get(i) / direct.get(i)));
                }
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.3f× | %s | %s |",
                        byCase.getKey(), byMetric.getKey().replace("_us", rps ? "" : " (µs)").replace("rps", "req/s"),
                        format(d), format(b), b / d, added, perRound));
                for (String side : references) {
                    row.append(' ').append(against(b, byMetric.getValue().getOrDefault(side, List.of()))).append(" |");
                }
                System.out.println(row);
            }
        }
        System.out.println();
        // CPU per request has no direct side (the upstream is another process): Baton against the others.
        header("| case | server CPU per request, Baton |", "|---|---:|", references, " − ");
        for (var byCase : data.entrySet()) {
            Map<String, List<Double>> cpu = byCase.getValue().get("server_cpu_us");
            if (cpu != null && cpu.containsKey("baton")) {
                double b = median(cpu.get("baton"));
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %,.0f µs |", byCase.getKey(), b));
                for (String side : references) {
                    row.append(' ').append(cpuAgainst(b, cpu.getOrDefault(side, List.of()))).append(" |");
                }
                System.out.println(row);
            }
        }
        System.out.println();
        goals(data);
        // The upstream must not be what limits the gateway: direct throughput should be 10x Baton's or more.
        for (var byCase : data.entrySet()) {
            Map<String, List<Double>> rps = byCase.getValue().get("rps");
            if (rps != null && rps.containsKey("direct") && rps.containsKey("baton")) {
                double headroom = median(rps.get("direct")) / median(rps.get("baton"));
                System.out.printf(Locale.ROOT, "Fake upstream headroom in %s: %.1f× Baton's throughput%s%n",
                        byCase.getKey(), headroom, headroom >= 10 ? "" : " (BELOW 10×: the upstream is part of"
                                + " what is measured, the ratio understates Baton's cost)");
            }
        }
        errors.forEach((name, byMode) -> {
            if (byMode.values().stream().anyMatch(v -> v > 0)) {
                System.out.println("ERRORS in " + name + ": " + byMode);
            }
        });
    }

    /**
     * The performance goals, against the Netty relay measured in the same rounds: met or not met, for the cases this
     * run measured. Ratios of medians; CPU per request is the closed loop's, under load.
     */
    private static void goals(Map<String, Map<String, Map<String, List<Double>>>> data) {
        record Goal(String what, String name, String metric, boolean ratio, boolean atLeast, double limit) {
        }
        List<Goal> goals = List.of(
                new Goal("throughput ≥ 0.8× the relay, non-stream", "closed-json", "rps", true, true, 0.8),
                new Goal("throughput ≥ 0.8× the relay, SSE", "closed-sse", "rps", true, true, 0.8),
                new Goal("open-loop p50 ≤ 1.1× the relay", "open-json", "p50_us", true, false, 1.1),
                new Goal("SSE time to first byte p50 ≤ 1.15× the relay", "open-sse", "ttfb_p50_us", true, false, 1.15),
                new Goal("server CPU per request ≤ +30 µs above the relay, non-stream", "closed-json", "server_cpu_us",
                        false, false, 30),
                new Goal("server CPU per request ≤ +50 µs above the relay, SSE", "closed-sse", "server_cpu_us", false,
                        false, 50));
        StringBuilder rows = new StringBuilder();
        for (Goal g : goals) {
            Map<String, List<Double>> sides = data.getOrDefault(g.name(), Map.of()).get(g.metric());
            if (sides == null || !sides.containsKey("baton") || !sides.containsKey("nettyrelay")) {
                continue;
            }
            double b = median(sides.get("baton"));
            double r = median(sides.get("nettyrelay"));
            double value = g.ratio() ? b / r : b - r;
            boolean met = g.atLeast() ? value >= g.limit() : value <= g.limit();
            rows.append(String.format(Locale.ROOT, "| %s | %s | %s |%n", g.what(),
                    g.ratio() ? String.format(Locale.ROOT, "%.3f×", value) : String.format(Locale.ROOT, "%+,.0f µs", value),
                    met ? "met" : "**not met**"));
        }
        if (!rows.isEmpty()) {
            System.out.println("| goal (against the Netty relay, same rounds) | measured | |");
            System.out.println("|---|---:|---|");
            System.out.print(rows);
            System.out.println();
        }
    }

    /** A reference side's median and Baton's ratio to it, as two table cells. */
    private static String against(double baton, List<Double> reference) {
        return reference.isEmpty() ? "— | —" : format(median(reference)) + " | "
                + String.format(Locale.ROOT, "%.3f×", baton / median(reference));
    }

    /** A reference side's CPU per request and what Baton costs more, as two table cells. */
    private static String cpuAgainst(double baton, List<Double> reference) {
        if (reference.isEmpty()) {
            return "— | —";
        }
        double r = median(reference);
        return String.format(Locale.ROOT, "%,.0f µs | %+,.0f µs", r, baton - r);
    }

    /** A table's header: the fixed columns, then two per reference side (its value and Baton against it). */
    private static void header(String columns, String rule, List<String> references, String versus) {
        StringBuilder head = new StringBuilder(columns);
        StringBuilder line = new StringBuilder(rule);
        for (String side : references) {
            head.append(' ').append(side).append(" | Baton").append(versus).append(side).append(" |");
            line.append("---:|---:|");
        }
        System.out.println(head);
        System.out.println(line);
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%,.1f", v);
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    // ---- small helpers -------------------------------------------------------------------------------------

    private static long percentile(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** Parks until the scheduled time: coarse sleep first, then a short spin for sub-millisecond accuracy. */
    private static void sleepUntil(long due) {
        long left;
        while ((left = due - System.nanoTime()) > 200_000) {
            LockSupport.parkNanos(left - 100_000);
        }
        while (due - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
    }

    private static void kv(StringBuilder line, String key, Object value) {
        line.append(' ').append(key).append('=').append(value instanceof Double d
                ? String.format(Locale.ROOT, "%.1f", d) : value);
    }

    /** {@code VERB URL --key value ... --flag}. */
    private static final class Options {
        final String url;
        private final Map<String, String> values = new HashMap<>();

        Options(String[] args) {
            url = args[1];
            for (int i = 2; i < args.length; i++) {
                String key = args[i].substring(2);
                boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
                values.put(key, flag ? "true" : args[++i]);
            }
        }

        boolean has(String key) {
            return values.containsKey(key);
        }

        double number(String key, double fallback) {
            return values.containsKey(key) ? Double.parseDouble(values.get(key)) : fallback;
        }

        String text(String key, String fallback) {
            String v = values.getOrDefault(key, fallback);
            if (v == null) {
                throw new IllegalArgumentException("--" + key + " is required");
            }
            return v;
        }
    }
}
