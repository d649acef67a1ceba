import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The budget burst tool's client (benchmarks/e2e/burst.sh): how far past its budget one key gets, through the HTTP
 * surface only (402 {@code budget_exceeded}, {@code usage.cost} in answers, the request records).
 *
 * <pre>
 * java Burst.java --urls URL[,URL2] --sim SIM_URL --run-id ID --budget 0.1 [--requests 100] [--out DIR]
 *                  [--warmup-key KEY]   (a gateway key without budget, default the sample's; "" skips the warm-up)
 * </pre>
 *
 * <p>Four phases, each with a key of its own (so each starts with a fresh budget; burst.sh configures them):
 * sequential requests until the first 402; N concurrent non-stream requests on a fast provider; N concurrent with
 * 1 s provider latency; N concurrent streams. With two URLs the requests alternate between the two nodes.
 */
public final class Burst {

    /** A phase: its key's name, whether it streams, and the simulator's answer meanwhile. */
    record Phase(String name, String label, boolean stream, boolean sequential, String behavior) {
    }

    static final String TEXT = "burst answer";
    static final List<Phase> PHASES = List.of(
            new Phase("seq", "sequential", false, true, reply("")),
            new Phase("fast", "N concurrent, fast provider", false, false, reply("")),
            new Phase("slow", "N concurrent, 1 s provider latency", false, false, reply(",\"delay_ms\":1000")),
            new Phase("streams", "N concurrent streams", true, false, reply(",\"event_interval_ms\":100")));

    /** About 1,000 prompt tokens as the simulator counts them (a quarter of the body's length). */
    static final String FILLER = "lorem ipsum ".repeat(325);
    static final Pattern COST = Pattern.compile("\"cost\":([0-9.eE+-]+)");

    static String reply(String modifiers) {
        return "{\"type\":\"reply\",\"text\":\"" + TEXT + "\"" + modifiers + "}";
    }

    /** One answer: status, request id, the cost the answer reports, and any worst-case figure the server sent. */
    record Answer(int node, int status, String id, Double cost, String worstCase, String code) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        List<String> urls = List.of(o.get("urls").split(","));
        String sim = o.get("sim");
        String runId = o.get("run-id");
        double budget = Double.parseDouble(o.get("budget"));
        int n = Integer.parseInt(o.getOrDefault("requests", "100"));
        Path out = Path.of(o.getOrDefault("out", "."));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).executor(Executors.newCachedThreadPool()).build();

        // Warm-up with a key of no budget: opens the client's connections (one a concurrent request) and the server's
        // to the provider, and warms its JIT, so the concurrent phases really are concurrent at the server.
        String warmupKey = o.getOrDefault("warmup-key", "baton-demo-key");
        if (!warmupKey.isEmpty()) {
            setDefault(http, sim, reply(""));
            for (int round = 0; round < 3; round++) {
                for (boolean stream : new boolean[] {false, true}) {
                    List<Answer> warm = concurrent(http, urls, warmupKey, n, stream);
                    long ok = warm.stream().filter(a -> a.status() == 200).count();
                    if (round == 0 && !stream) {
                        System.err.printf("warm-up with the key without budget: %d of %d answered 200%n", ok, n);
                    }
                }
            }
        }

        StringBuilder table = new StringBuilder();
        table.append("| load | served | refused 402 | other | spent (answers) | spent (records) | budget | spent/budget"
                + " | cost of one request | one request's worst case (server) |\n");
        table.append("|---|---:|---:|---|---:|---:|---:|---:|---:|---|\n");
        StringBuilder raw = new StringBuilder("phase\tnode\tstatus\tid\tcost\tworst_case\tcode\n");
        for (Phase phase : PHASES) {
            setDefault(http, sim, phase.behavior());
            String key = "secret-burst-" + runId + "-" + phase.name();
            List<Answer> answers = phase.sequential() ? sequential(http, urls, key, n * 10)
                    : concurrent(http, urls, key, n, phase.stream());
            double fromAnswers = 0;
            int served = 0;
            int refused = 0;
            Map<String, Integer> other = new TreeMap<>();
            List<Double> costs = new ArrayList<>();
            String worst = null;
            for (Answer a : answers) {
                raw.append(phase.name()).append('\t').append(a.node()).append('\t').append(a.status()).append('\t')
                        .append(a.id()).append('\t').append(a.cost()).append('\t').append(a.worstCase()).append('\t')
                        .append(a.code()).append('\n');
                if (a.status() == 200) {
                    served++;
                    if (a.cost() != null) {
                        fromAnswers += a.cost();
                        costs.add(a.cost());
                    }
                } else if (a.status() == 402 && "budget_exceeded".equals(a.code())) {
                    refused++;
                } else {
                    other.merge(a.status() + " " + a.code(), 1, Integer::sum);
                }
                if (a.worstCase() != null) {
                    worst = a.worstCase();
                }
            }
            Thread.sleep(1000); // a stream's record is saved when its end is known
            double fromRecords = 0;
            int missing = 0;
            for (Answer a : answers) {
                if (a.status() != 200) {
                    continue;
                }
                Double recorded = recordedCost(http, urls.get(a.node()), key, a.id());
                if (recorded == null) {
                    missing++;
                } else {
                    fromRecords += recorded;
                }
            }
            costs.sort(null);
            String median = costs.isEmpty() ? "—" : fmt(costs.get(costs.size() / 2));
            String label = phase.label().replace("N ", n + " ") + (urls.size() > 1 ? " (2 nodes)" : "");
            table.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s%s | %s | %.1f× | %s | %s |%n",
                    label, served, refused, other.isEmpty() ? "—" : other.toString(), fmt(fromAnswers),
                    fmt(fromRecords), missing > 0 ? " (" + missing + " records not found)" : "", fmt(budget),
                    Math.max(fromAnswers, fromRecords) / budget, median, worst == null ? "— (not reported)" : worst));
            System.err.printf("%s: %d answers, %d served, spent %s of %s%n", phase.label(), answers.size(), served,
                    fmt(fromAnswers), fmt(budget));
        }
        setDefault(http, sim, reply(""));
        System.out.println(table);
        Files.writeString(out.resolve("burst.md"), table.toString());
        Files.writeString(out.resolve("answers.tsv"), raw.toString());
        System.exit(0);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    static List<Answer> sequential(HttpClient http, List<String> urls, String key, int max) {
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            Answer a = send(http, urls, i % urls.size(), key, false);
            answers.add(a);
            if (a.status() == 402 || a.status() == 0) {
                break;
            }
        }
        return answers;
    }

    /** N requests released together (each on its own thread, all waiting on one latch). */
    static List<Answer> concurrent(HttpClient http, List<String> urls, String key, int n, boolean stream)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Answer>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int node = i % urls.size();
            futures.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return send(http, urls, node, key, stream);
            }));
        }
        ready.await();
        go.countDown();
        List<Answer> answers = new ArrayList<>();
        for (Future<Answer> f : futures) {
            answers.add(f.get());
        }
        pool.shutdown();
        return answers;
    }

    static Answer send(HttpClient http, List<String> urls, int node, String key, boolean stream) {
        String body = "{\"model\":\"burst\",\"max_tokens\":16,\"stream\":" + stream
                + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "")
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + FILLER + "\"}]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(urls.get(node) + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            if (stream) {
                HttpResponse<Stream<String>> r = http.send(request, HttpResponse.BodyHandlers.ofLines());
                Double cost = null;
                StringBuilder all = new StringBuilder();
                for (String line : (Iterable<String>) r.body()::iterator) {
                    all.append(line).append('\n');
                    if (line.startsWith("data:") && line.contains("\"usage\":{")) {
                        Matcher m = COST.matcher(line);
                        if (m.find()) {
                            cost = Double.valueOf(m.group(1));
                        }
                    }
                }
                return answer(node, r.statusCode(), r.headers(), all.toString(), cost);
            }
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            Matcher m = COST.matcher(r.body());
            return answer(node, r.statusCode(), r.headers(), r.body(), m.find() ? Double.valueOf(m.group(1)) : null);
        } catch (IOException e) {
            return new Answer(node, 0, null, null, null, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(node, 0, null, null, null, e.toString());
        }
    }

    static Answer answer(int node, int status, HttpHeaders headers, String body, Double cost) {
        String id = headers.firstValue("x-request-id").orElse(null);
        Matcher code = Pattern.compile("\"code\":\"([^\"]*)\"").matcher(body);
        return new Answer(node, status, id, cost, worstCase(headers, body), code.find() ? code.group(1) : "-");
    }

    /**
     * A worst-case or reservation figure, if the server reports one: a response header or a JSON member whose name
     * says "worst" or "reserv". The budget rewrite (issue 31) may add one; until then there is none.
     */
    static String worstCase(HttpHeaders headers, String body) {
        for (var h : headers.map().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.contains("worst") || name.contains("reserv")) {
                return name + ": " + String.join(",", h.getValue());
            }
        }
        Matcher m = Pattern.compile("\"([a-z_]*(?:worst|reserv)[a-z_]*)\":([0-9.eE+-]+)").matcher(body);
        return m.find() ? m.group(1) + "=" + m.group(2) : null;
    }

    /** The cost the request's record holds (GET {base}/v1/requests/{id}, with the key that sent it). */
    static Double recordedCost(HttpClient http, String base, String key, String id) {
        if (id == null) {
            return null;
        }
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/requests/" + id))
                        .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    Matcher m = COST.matcher(r.body());
                    return m.find() ? Double.valueOf(m.group(1)) : 0.0;
                }
                Thread.sleep(500);
            } catch (IOException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    static void setDefault(HttpClient http, String sim, String behavior) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sim + "/__sim/accounts/burst/default"))
                .PUT(HttpRequest.BodyPublishers.ofString(behavior)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the simulator refused " + behavior + ": " + r.body());
        }
    }
}
