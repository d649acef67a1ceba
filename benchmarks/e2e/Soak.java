import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The soak run's client (benchmarks/e2e/soak.sh): mixed traffic through the sample gateway while the simulator's
 * accounts flap, every answer checked against the target it may come from, then the report.
 *
 * <pre>
 * java Soak.java traffic --base URL --sim URL --seconds N --out DIR [--concurrency C] [--pause-ms P]
 *                        [--flap-seconds F] [--seed S]
 * java Soak.java report DIR   (reads DIR/requests.tsv, DIR/db.tsv, DIR/server.properties; writes DIR/report.md)
 * </pre>
 *
 * <p>Each simulator account answers with its own name repeated, word by word in streams ({@code "standby standby
 * ..."}), and the accounts are named like the connections that call them. So every chunk says which target wrote
 * it: an answer is <b>wrong</b> when a word is not the name of a target in the route's chain, when its words come
 * from two targets, or when they disagree with the {@code x-baton-connection} header.
 */
public final class Soak {

    /** The routes of the soak configuration (soak.sh) and the connections each may be served by. */
    static final Map<String, Set<String>> CHAINS = Map.of(
            "demo", Set.of("primary", "standby"),
            "mixed", Set.of("primary", "claude"),
            "soak", Set.of("standby", "third"));
    static final List<String> ACCOUNTS = List.of("primary", "standby", "claude", "third");

    /** A gateway key and the routes it may name (soak.sh configures the same). */
    record Key(String name, String secret, List<String> routes) {
    }

    static final List<Key> KEYS = List.of(
            new Key("unnamed", "baton-demo-key", List.of("demo", "mixed", "soak")),
            new Key("soak-k1", "soak-key-1", List.of("demo", "mixed", "soak")),
            new Key("soak-k2", "soak-key-2", List.of("demo", "soak")),
            new Key("soak-k3", "soak-key-3", List.of("mixed")));

    static final int WORDS = 6;
    static final Pattern CONTENT = Pattern.compile("\"content\":\"((?:[^\"\\\\]|\\\\.)*)\"");

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: traffic --base URL --sim URL --seconds N --out DIR ... | report DIR");
            System.exit(2);
        }
        switch (args[0]) {
            case "traffic" -> traffic(options(args));
            case "report" -> report(Path.of(args[1]));
            case "check" -> check();
            default -> {
                System.err.println("unknown command " + args[0]);
                System.exit(2);
            }
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return o;
    }

    // ---------------------------------------------------------------- traffic

    static void traffic(Map<String, String> o) throws Exception {
        String base = o.get("base");
        String sim = o.get("sim");
        long seconds = Long.parseLong(o.get("seconds"));
        Path out = Path.of(o.get("out"));
        int concurrency = Integer.parseInt(o.getOrDefault("concurrency", "6"));
        long pauseMs = Long.parseLong(o.getOrDefault("pause-ms", "100"));
        long flapSeconds = Long.parseLong(o.getOrDefault("flap-seconds", "10"));
        long seed = Long.parseLong(o.getOrDefault("seed", "31"));

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).build();
        long end = System.nanoTime() + seconds * 1_000_000_000L;

        try (PrintWriter log = new PrintWriter(Files.newBufferedWriter(out.resolve("requests.tsv")), false);
                PrintWriter flaps = new PrintWriter(Files.newBufferedWriter(out.resolve("flaps.tsv")), true)) {
            log.println("t_ms\tid\tkey\troute\tstream\tstatus\tconnection\twords\toutcome\tdetail");
            flaps.println("t_ms\taccount\tstate");
            long start = System.currentTimeMillis();
            Thread flapper = Thread.ofPlatform().name("flapper").start(
                    () -> flap(http, sim, flapSeconds, seed, end, start, flaps));
            List<Thread> workers = new ArrayList<>();
            AtomicLong sent = new AtomicLong();
            for (int w = 0; w < concurrency; w++) {
                workers.add(Thread.ofPlatform().name("worker-" + w).start(() -> {
                    while (System.nanoTime() < end) {
                        Result r = send(http, base, sent.incrementAndGet());
                        synchronized (log) {
                            log.println((System.currentTimeMillis() - start) + "\t" + r.tsv());
                        }
                        sleep(pauseMs);
                    }
                }));
            }
            Thread progress = Thread.ofPlatform().daemon().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    sleep(60_000);
                    System.err.printf("%s  soak client: %d requests sent%n", Instant.now(), sent.get());
                }
            });
            for (Thread t : workers) {
                t.join();
            }
            flapper.join();
            progress.interrupt();
            // Leave every account healthy, so what the server does after the run (probes) is not counted against it.
            for (String account : ACCOUNTS) {
                setDefault(http, sim, account, healthy(account));
            }
            System.err.printf("%s  soak client: done, %d requests%n", Instant.now(), sent.get());
        }
    }

    /** One request's outcome, a line of requests.tsv. */
    record Result(String id, String key, String route, boolean stream, int status, String connection, String words,
            String outcome, String detail) {
        String tsv() {
            return String.join("\t", id == null ? "-" : id, key, route, Boolean.toString(stream),
                    Integer.toString(status), connection == null ? "-" : connection, words.isEmpty() ? "-" : words,
                    outcome, detail.replaceAll("[\t\r\n]", " "));
        }
    }

    static Result send(HttpClient http, String base, long n) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Key key = KEYS.get(random.nextInt(KEYS.size()));
        String route = key.routes().get(random.nextInt(key.routes().size()));
        boolean stream = random.nextBoolean();
        String body = "{\"model\":\"" + route + "\",\"max_tokens\":64,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"soak request " + n + "\"}]}";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key.secret())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!stream && random.nextInt(4) == 0) {
            // A fresh key each time: never a replay, but the idempotency store (Redis) is written.
            request.header("Idempotency-Key", "soak-" + n + "-" + random.nextLong(Long.MAX_VALUE));
        }
        try {
            if (stream) {
                HttpResponse<Stream<String>> response = http.send(request.build(),
                        HttpResponse.BodyHandlers.ofLines());
                String id = response.headers().firstValue("x-request-id").orElse(null);
                String connection = response.headers().firstValue("x-baton-connection").orElse(null);
                if (response.statusCode() != 200) {
                    String text = String.join(" ", response.body().toList());
                    return new Result(id, key.name(), route, true, response.statusCode(), connection, "",
                            "error", errorCode(text));
                }
                StringBuilder words = new StringBuilder();
                boolean done = false;
                String error = null;
                for (String line : (Iterable<String>) response.body()::iterator) {
                    if (!line.startsWith("data:")) {
                        continue;
                    }
                    String data = line.substring(5).trim();
                    if (data.equals("[DONE]")) {
                        done = true;
                    } else if (data.startsWith("{\"error\"")) {
                        error = errorCode(data);
                    } else {
                        Matcher m = CONTENT.matcher(data);
                        while (m.find()) {
                            words.append(m.group(1));
                        }
                    }
                }
                return judge(id, key, route, true, 200, connection, words.toString(), done, error, false);
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String id = response.headers().firstValue("x-request-id").orElse(null);
            String connection = response.headers().firstValue("x-baton-connection").orElse(null);
            if (response.statusCode() != 200) {
                return new Result(id, key.name(), route, false, response.statusCode(), connection, "", "error",
                        errorCode(response.body()));
            }
            Matcher m = CONTENT.matcher(response.body());
            String words = m.find() ? m.group(1) : "";
            boolean degraded = response.headers().firstValue("x-baton-degraded").isPresent();
            return judge(id, key, route, false, 200, connection, words, true, null, degraded);
        } catch (IOException e) {
            return new Result(null, key.name(), route, stream, 0, null, "", "transport", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(null, key.name(), route, stream, 0, null, "", "transport", e.toString());
        }
    }

    /** Right target, one target, agreeing with the header; then complete or broken. */
    static Result judge(String id, Key key, String route, boolean stream, int status, String connection,
            String text, boolean complete, String error, boolean degraded) {
        Set<String> from = new LinkedHashSet<>(List.of(text.trim().isEmpty() ? new String[0] : text.trim().split("\\s+")));
        String words = String.join(",", from);
        if (degraded) {
            return new Result(id, key.name(), route, stream, status, connection, words, "degraded", "");
        }
        String wrong = null;
        if (from.size() > 1) {
            wrong = "words from " + from.size() + " targets";
        } else if (from.size() == 1 && !CHAINS.get(route).contains(from.iterator().next())) {
            wrong = "served by " + words + ", not in route " + route + " " + CHAINS.get(route);
        } else if (from.size() == 1 && connection != null && !connection.equals(from.iterator().next())) {
            wrong = "x-baton-connection " + connection + " but words from " + words;
        } else if (connection != null && !CHAINS.get(route).contains(connection)) {
            wrong = "x-baton-connection " + connection + " not in route " + route;
        } else if (complete && from.isEmpty()) {
            wrong = "complete answer without text";
        } else if (complete && text.trim().split("\\s+").length != WORDS) {
            wrong = "answer of " + text.trim().split("\\s+").length + " words, expected " + WORDS;
        }
        if (wrong != null) {
            return new Result(id, key.name(), route, stream, status, connection, words, "wrong", wrong);
        }
        if (!complete) {
            return new Result(id, key.name(), route, stream, status, connection, words, "broken",
                    error == null ? "ended without [DONE]" : error);
        }
        return new Result(id, key.name(), route, stream, status, connection, words, "ok", "");
    }

    static String errorCode(String body) {
        Matcher code = Pattern.compile("\"code\":\"([^\"]*)\"").matcher(body);
        if (code.find()) {
            return code.group(1);
        }
        Matcher type = Pattern.compile("\"type\":\"([^\"]*)\"").matcher(body);
        return type.find() ? type.group(1) : body.length() > 80 ? body.substring(0, 80) : body;
    }

    /** The judge must be able to say "wrong": known bad answers, checked before every run. */
    static void check() {
        Key k = KEYS.get(0);
        String six = "standby standby standby standby standby standby";
        Map<String, Result> cases = Map.of(
                "right", judge("r1", k, "demo", false, 200, "standby", six, true, null, false),
                "outside the chain", judge("r2", k, "mixed", false, 200, "standby", six, true, null, false),
                "two targets", judge("r3", k, "demo", true, 200, "primary",
                        "primary primary standby standby standby standby", true, null, false),
                "header disagrees", judge("r4", k, "demo", true, 200, "primary", six, true, null, false),
                "short answer", judge("r5", k, "demo", false, 200, "standby", "standby standby", true, null, false),
                "broken stream", judge("r6", k, "soak", true, 200, "third", "third third", false, "cut", false));
        Map<String, String> expected = Map.of("right", "ok", "outside the chain", "wrong", "two targets", "wrong",
                "header disagrees", "wrong", "short answer", "wrong", "broken stream", "broken");
        cases.forEach((name, r) -> {
            if (!r.outcome().equals(expected.get(name))) {
                throw new AssertionError(name + ": judged " + r.outcome() + ", expected " + expected.get(name));
            }
        });
        System.err.println("soak judge: " + cases.size() + " known answers judged as expected");
    }

    // ---------------------------------------------------------------- flapping

    static String healthy(String account) {
        return "{\"type\":\"reply\",\"text\":\"" + (account + " ").repeat(WORDS).trim() + "\",\"event_interval_ms\":15}";
    }

    /** Every flap period each account takes a new state: healthy, 429, 503 or a stream cut after k events. */
    static void flap(HttpClient http, String sim, long flapSeconds, long seed, long end, long start,
            PrintWriter flaps) {
        Random random = new Random(seed);
        while (System.nanoTime() < end) {
            for (String account : ACCOUNTS) {
                int pick = random.nextInt(10);
                String behavior;
                String state;
                if (pick < 4) {
                    behavior = healthy(account);
                    state = "healthy";
                } else if (pick < 6) {
                    long retryAfter = 500 + random.nextInt(2500);
                    behavior = "{\"type\":\"rate_limited\",\"retry_after_ms\":" + retryAfter + "}";
                    state = "429 retry-after " + retryAfter + "ms";
                } else if (pick < 8) {
                    behavior = "{\"type\":\"overloaded\"}";
                    state = "503 overloaded";
                } else {
                    int cut = 1 + random.nextInt(5);
                    behavior = healthy(account).replace("}", ",\"cut_after\":" + cut + "}");
                    state = "streams cut after " + cut + " events";
                }
                setDefault(http, sim, account, behavior);
                flaps.println((System.currentTimeMillis() - start) + "\t" + account + "\t" + state);
            }
            sleep(flapSeconds * 1000);
        }
    }

    static void setDefault(HttpClient http, String sim, String account, String behavior) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sim + "/__sim/accounts/" + account
                    + "/default")).PUT(HttpRequest.BodyPublishers.ofString(behavior)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                System.err.println("simulator refused " + behavior + ": " + r.body());
            }
        } catch (IOException e) {
            System.err.println("simulator unreachable: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- report

    /**
     * Joins the client's log with the records in PostgreSQL (db.tsv: id, served_connection, http_status) and the
     * server's figures (server.properties), prints the table and writes report.md.
     */
    static void report(Path dir) throws IOException {
        List<String[]> requests = Files.readAllLines(dir.resolve("requests.tsv")).stream().skip(1)
                .map(l -> l.split("\t", -1)).toList();
        Map<String, String[]> db = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("db.tsv"))) {
            String[] f = line.split("\\|", -1);
            if (f.length >= 3) {
                db.put(f[0], f);
            }
        }
        Map<String, String> server = new TreeMap<>();
        for (String line : Files.readAllLines(dir.resolve("server.properties"))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                server.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }

        Map<String, Long> byStatus = new TreeMap<>();
        Map<String, Long> byOutcome = new TreeMap<>();
        Map<String, Long> errors = new TreeMap<>();
        long streams = 0;
        long withId = 0;
        long lost = 0;
        long disagree = 0;
        List<String> examples = new ArrayList<>();
        Set<String> clientIds = new java.util.HashSet<>();
        Path warmup = dir.resolve("warmup-ids.txt");
        long warmupRecords = 0;
        if (Files.exists(warmup)) {
            for (String id : Files.readAllLines(warmup)) {
                if (!id.isBlank() && db.remove(id.trim()) != null) {
                    warmupRecords++;
                }
            }
        }
        for (String[] r : requests) {
            String id = r[1];
            String status = r[5];
            String outcome = r[8];
            byStatus.merge(status.equals("0") ? "no answer" : status, 1L, Long::sum);
            byOutcome.merge(outcome, 1L, Long::sum);
            if (outcome.equals("error") || outcome.equals("broken")) {
                errors.merge(status + " " + r[9], 1L, Long::sum);
            }
            if (r[4].equals("true")) {
                streams++;
            }
            if (outcome.equals("wrong") && examples.size() < 10) {
                examples.add(String.join(" ", r));
            }
            if (id.equals("-")) {
                continue;
            }
            withId++;
            clientIds.add(id);
            String[] record = db.get(id);
            if (record == null) {
                lost++;
                if (examples.size() < 20) {
                    examples.add("no record: " + String.join(" ", r));
                }
            } else if (outcome.equals("ok") || outcome.equals("broken")) {
                // the record must name the connection whose words the client got
                String words = r[7];
                if (!words.equals("-") && !words.equals(record[1])) {
                    disagree++;
                    if (examples.size() < 20) {
                        examples.add("record says " + record[1] + ": " + String.join(" ", r));
                    }
                }
            }
        }
        long extra = db.keySet().stream().filter(id -> !clientIds.contains(id)).count();
        long loss = Long.parseLong(server.getOrDefault("records.dropped", "0"))
                + Long.parseLong(server.getOrDefault("records.failed", "0"));

        StringBuilder t = new StringBuilder();
        t.append("| soak | value |\n|---|---:|\n");
        t.append(row("duration", server.getOrDefault("minutes", "?") + " min"));
        t.append(row("requests sent", requests.size() + " (" + streams + " streams)"));
        byStatus.forEach((k, v) -> t.append(row("answered " + k, v)));
        byOutcome.forEach((k, v) -> t.append(row("outcome " + k, v)));
        t.append(row("**wrong answers** (target outside the route, mixed targets, header or record disagreeing)",
                byOutcome.getOrDefault("wrong", 0L) + disagree));
        t.append(row("answers with a request id", withId));
        t.append(row("records in PostgreSQL (kind=request; without the " + warmupRecords
                + " of the start-up check)", db.size()));
        t.append(row("**records lost** (id answered, no row)", lost));
        t.append(row("records with no request in the client's log", extra));
        t.append(row("Baton's loss counter `baton.records` dropped + failed", loss + " (dropped "
                + server.getOrDefault("records.dropped", "?") + ", failed " + server.getOrDefault("records.failed", "?")
                + ", written " + server.getOrDefault("records.written", "?") + ")"));
        t.append(row("lost outside the counter", Math.max(0, lost - loss)));
        t.append(row("server log lines about records not written", server.getOrDefault("log.records_not_written", "?")));
        for (String phase : List.of("start", "end")) {
            t.append(row("heap used at " + phase + " (live after GC)", server.getOrDefault("heap." + phase, "?")
                    + " MB (" + server.getOrDefault("live." + phase, "?") + " MB)"));
            t.append(row("threads at " + phase + " (Java / OS)", server.getOrDefault("java_threads." + phase, "?")
                    + " / " + server.getOrDefault("os_threads." + phase, "?")));
        }
        server.forEach((k, v) -> {
            if (k.startsWith("event.")) {
                t.append(row(k.substring(6), v));
            }
        });
        StringBuilder e = new StringBuilder("\n| status and error code (errors and broken streams) | count |\n|---|---:|\n");
        errors.forEach((k, v) -> e.append(row(k, v)));
        String text = t + e.toString() + (examples.isEmpty() ? "" : "\nExamples:\n" + String.join("\n", examples) + "\n");
        System.out.println(text);
        Files.writeString(dir.resolve("report.md"), text, StandardCharsets.UTF_8);
    }

    static String row(String name, Object value) {
        return "| " + name + " | " + value + " |\n";
    }
}
