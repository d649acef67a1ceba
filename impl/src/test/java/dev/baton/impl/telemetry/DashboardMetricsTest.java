package dev.baton.impl.telemetry;

import dev.baton.ChatRequest;
import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.budget.Account;
import dev.baton.impl.budget.LocalLedger;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.config.Budget;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.ProviderSimulatorExtension;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboard and the Prometheus alert rules in {@code docs/dashboards} name only metrics Baton emits, with
 * only labels those metrics carry. An OtelObserver on the OpenTelemetry SDK is fed records that exercise every
 * metric; each emitted metric gets its Prometheus names as an OpenTelemetry Collector's Prometheus exporter writes
 * them (OpenTelemetry's Prometheus compatibility rules); every PromQL expression of the two files is then checked
 * against them. A metric renamed in code, or a query with a typo, fails here instead of drawing an empty panel.
 */
class DashboardMetricsTest {

    /** From the module (as Maven runs tests) or from the repository's root. */
    private static final Path DASHBOARDS = Files.isDirectory(Path.of("..", "docs", "dashboards"))
            ? Path.of("..", "docs", "dashboards") : Path.of("docs", "dashboards");
    /** Labels Prometheus or the collector add to every series: the job and instance of the node that sent it. */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance");
    private static final Pattern METRIC = Pattern.compile("\\b(?:baton|gen_ai)_[A-Za-z0-9_]*");
    private static final Pattern SELECTOR = Pattern.compile("([A-Za-z_:][A-Za-z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*(?:=~|!~|!=|=)\\s*\"");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring)\\s*\\(([^)]*)\\)");
    private static final Pattern LABEL_VALUES = Pattern.compile(
            "label_values\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)\\s*(?:\\{[^}]*})?\\s*,\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\)");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern EXPR_LINE = Pattern.compile("^(\\s*)(?:-\\s+)?expr:\\s*(.*)$");

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static SdkMeterProvider meters;
    /** Every Prometheus series name Baton emits, with the labels it carries. */
    private static Map<String, Set<String>> emitted;

    @BeforeAll
    static void emitEveryMetric() throws Exception {
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        meters = SdkMeterProvider.builder().registerMetricReader(reader).build();
        OtelObserver observer = new OtelObserver(OpenTelemetrySdk.builder().setMeterProvider(meters).build());
        Clock clock = Clock.systemUTC();

        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m weight=3, b/m");
        props.put("baton.routes.chat.balance", "weighted");
        props.put("baton.routes.chat.budget", "10/1d");
        props.put("baton.models.m.price.input", "2.00");
        props.put("baton.models.m.price.output", "8.00");
        FailoverEngine engine = EngineFixture.engine(props, clock, observer, observer);
        observer.watch(engine.health());
        observer.watchShares(engine.balancer());
        engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS); // the tier's shares applied
        observer.watchCluster(() -> true);
        observer.watchRecords(() -> 3, () -> 1, () -> 0, () -> 2);
        LocalLedger ledger = new LocalLedger();
        Spending spending = Spending.of(EngineFixture.config(props), Map.of("team", Budget.parse("5/1d")), ledger,
                clock);
        ledger.restore(new Account(Account.Scope.KEY, "team", Budget.parse("5/1d")), BigDecimal.ONE, clock.instant());
        observer.watchBudgets(spending);

        // A streamed request that failed on a and recovered on b: requests, attempts, the connection's requests and
        // fallbacks, durations, first token, attempt durations and cost.
        Instant start = clock.instant();
        AttemptRecord failed = new AttemptRecord("a/m", "a", "openai", "m", "primary", 0, start, 40,
                FailureKind.SERVER_ERROR, 500, "server_error", null, "upstream failed", null, false, false);
        AttemptRecord served = new AttemptRecord("b/m", "b", "openai", "m", "standby_a", 0, start.plusMillis(40), 300,
                null, 200, null, null, null, null, false, false);
        observer.finished(new RequestRecord("req_1", start, true, 200, null, "chat", "chat",
                new ServedBy("m", "openai", "b", "standby_a", "chat"), List.of(failed, served), List.of(), true, true,
                120L, 340, null, false, new Cost(new BigDecimal("0.0042"), "USD", "custom"), "team",
                RequestRecord.REQUEST), null);
        observer.retryRefused("req_1", "a");
        observer.ejected("a", Duration.ofSeconds(30), "server_error");
        observer.probeNotSent("a", "rate limit");

        emitted = new TreeMap<>();
        for (MetricData metric : reader.collectAllMetrics()) {
            Set<String> labels = new TreeSet<>();
            for (PointData point : metric.getData().getPoints()) {
                point.getAttributes().forEach((key, value) -> labels.add(label(key.getKey())));
            }
            for (String name : prometheusNames(metric)) {
                Set<String> withLe = new TreeSet<>(labels);
                if (name.endsWith("_bucket")) {
                    withLe.add("le");
                }
                emitted.put(name, withLe);
            }
        }
    }

    @AfterAll
    static void close() {
        meters.close();
    }

    @Test
    void everyMetricTheDashboardQueriesIsEmittedWithTheLabelsItUses() throws IOException {
        List<String> expressions = dashboardExpressions();
        assertTrue(expressions.size() >= 25, "the dashboard's queries were found: " + expressions.size());
        assertEquals(List.of(), problems(expressions));
    }

    @Test
    void everyMetricTheAlertRulesQueryIsEmittedWithTheLabelsTheyUse() throws IOException {
        List<String> expressions = alertExpressions();
        assertTrue(expressions.size() >= 8, "the rules' expressions were found: " + expressions.size());
        assertEquals(List.of(), problems(expressions));
    }

    @Test
    void everyMetricBatonEmitsHasAPanel() throws IOException {
        Set<String> shown = new TreeSet<>();
        for (String expression : dashboardExpressions()) {
            shown.addAll(metrics(expression));
        }
        Set<String> families = new TreeSet<>();
        emitted.keySet().forEach(name -> families.add(name.replaceAll("_(bucket|sum|count)$", "")));
        families.removeIf(family -> shown.stream().anyMatch(name -> name.startsWith(family)));
        assertEquals(Set.of(), families, "metrics no panel shows");
    }

    /** The names follow OpenTelemetry's Prometheus compatibility rules, as the collector's exporter applies them. */
    @Test
    void prometheusNamesFollowTheCompatibilityRules() {
        assertTrue(emitted.keySet().containsAll(Set.of("baton_requests_total", "baton_attempts_total",
                "baton_connection_requests_total", "baton_connection_fallbacks_total",
                "baton_connection_transitions_total", "baton_retry_budget_refusals_total", "baton_probes_total",
                "baton_cost_total", "baton_records_total", "baton_target_share_ratio", "baton_cluster_connected_ratio")),
                "counters get _total, an annotation unit ({request}) adds nothing: " + emitted.keySet());
        assertTrue(emitted.containsKey("baton_request_duration_seconds_bucket"));
        assertTrue(emitted.containsKey("baton_time_to_first_token_seconds_count"));
        assertTrue(emitted.containsKey("gen_ai_client_operation_duration_seconds_sum"));
        assertTrue(emitted.containsKey("baton_connection_state_ratio"), "unit 1 on a gauge: _ratio");
        assertTrue(emitted.containsKey("baton_budget_used_ratio"));
        assertTrue(emitted.containsKey("baton_records_queued"), "an annotation unit ({record}) adds nothing");
        assertEquals(Set.of("baton_connection", "baton_state"), emitted.get("baton_connection_state_ratio"));
        assertEquals(Set.of("baton_budget_scope", "baton_budget_name"), emitted.get("baton_budget_used_ratio"));

        assertEquals("system_memory_utilization_ratio", base("system.memory.utilization", "1", true));
        assertEquals("hits", base("hits", "1", false), "ratio for gauges only");
        assertEquals("system_filesystem_usage_bytes", base("system.filesystem.usage", "By", false));
        assertEquals("system_network_dropped", base("system.network.dropped", "{packets}", false));
        assertEquals("system_network_dropped_packets", base("system.network.dropped", "packets", false));
        assertEquals("speed_meters_per_second", base("speed", "m/s", false));
        assertEquals("queue_wait_seconds", base("queue.wait.seconds", "s", false), "a unit already there");
        assertEquals("key_1st", label("1st"));
    }

    /** What is wrong with {@code expressions}: unknown metrics, and labels a metric does not carry. */
    private static List<String> problems(List<String> expressions) {
        List<String> problems = new ArrayList<>();
        for (String expression : expressions) {
            for (String metric : metrics(expression)) {
                if (!emitted.containsKey(metric)) {
                    problems.add(metric + " is not emitted (in " + expression + ")");
                }
            }
            Matcher values = LABEL_VALUES.matcher(expression);
            while (values.find()) {
                check(values.group(1), values.group(2), expression, problems);
            }
            Matcher selector = SELECTOR.matcher(expression);
            while (selector.find()) {
                Matcher matcher = MATCHER.matcher(selector.group(2));
                while (matcher.find()) {
                    check(selector.group(1), matcher.group(1), expression, problems);
                }
            }
            Matcher grouping = GROUPING.matcher(expression);
            while (grouping.find()) {
                if (grouping.group(1).equals("without")) {
                    problems.add("without(…) cannot be checked; use by(…): " + expression);
                    continue;
                }
                // by (…) before its argument applies to the metrics in that argument; on (…) and ignoring (…), and a
                // by (…) written after its argument, to every metric of the expression.
                String scope = grouping.group(1).equals("by") ? argument(expression, grouping.end()) : expression;
                for (String label : grouping.group(2).split(",")) {
                    if (!label.isBlank()) {
                        for (String metric : metrics(scope)) {
                            check(metric, label.strip(), expression, problems);
                        }
                    }
                }
            }
        }
        return problems;
    }

    private static void check(String metric, String label, String expression, List<String> problems) {
        Set<String> labels = emitted.get(metric);
        if (labels != null && !labels.contains(label) && !TARGET_LABELS.contains(label)) {
            problems.add(metric + " has no label " + label + " (it has " + labels + ") in " + expression);
        }
    }

    /** The parenthesised argument that starts at {@code from} (after blanks), or the whole expression if none does. */
    private static String argument(String expression, int from) {
        int i = from;
        while (i < expression.length() && Character.isWhitespace(expression.charAt(i))) {
            i++;
        }
        if (i == expression.length() || expression.charAt(i) != '(') {
            return expression;
        }
        int depth = 0;
        for (int j = i; j < expression.length(); j++) {
            char c = expression.charAt(j);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0) {
                return expression.substring(i, j + 1);
            }
        }
        return expression;
    }

    /**
     * The metric names in {@code expression}: identifiers starting {@code baton_} or {@code gen_ai_} once strings,
     * label matchers, grouping labels and label_values' label are taken out (labels start with {@code baton_} too).
     */
    private static Set<String> metrics(String expression) {
        String bare = LABEL_VALUES.matcher(expression).replaceAll("$1");
        bare = STRING.matcher(bare).replaceAll("\"\"");
        bare = bare.replaceAll("\\{[^}]*}", "{}");
        bare = GROUPING.matcher(bare).replaceAll("$1 ()");
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(bare);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    /** Every {@code expr} of the dashboard's panels and annotations, and the query of each template variable. */
    private static List<String> dashboardExpressions() throws IOException {
        try (JsonReader reader = Json.createReader(Files.newBufferedReader(DASHBOARDS.resolve("baton-grafana.json")))) {
            List<String> found = new ArrayList<>();
            collect(reader.readObject(), found);
            return found;
        }
    }

    private static void collect(JsonValue value, List<String> found) {
        if (value instanceof JsonObject object) {
            object.forEach((key, v) -> {
                if (v instanceof JsonString s && (key.equals("expr")
                        || key.equals("definition") && "query".equals(object.getString("type", "")))) {
                    found.add(s.getString());
                } else {
                    collect(v, found);
                }
            });
        } else if (value instanceof JsonArray array) {
            array.forEach(v -> collect(v, found));
        }
    }

    /** Every {@code expr:} of the rules: on its line, or as a block ({@code |}, {@code >}) on the lines below. */
    private static List<String> alertExpressions() throws IOException {
        List<String> lines = Files.readAllLines(DASHBOARDS.resolve("baton-alerts.yml"));
        List<String> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = EXPR_LINE.matcher(lines.get(i));
            if (!m.matches()) {
                continue;
            }
            String value = m.group(2).strip();
            if (value.matches("[|>][-+]?")) {
                StringBuilder block = new StringBuilder();
                int indent = m.group(1).length();
                while (i + 1 < lines.size() && (lines.get(i + 1).isBlank()
                        || lines.get(i + 1).length() - lines.get(i + 1).stripLeading().length() > indent)) {
                    block.append(lines.get(++i).strip()).append(' ');
                }
                value = block.toString().strip();
            } else if (value.length() > 1 && (value.startsWith("\"") || value.startsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            found.add(value);
        }
        return found;
    }

    /** The Prometheus series names of {@code metric}: {@code _total} for a counter, three for a histogram. */
    private static List<String> prometheusNames(MetricData metric) {
        MetricDataType type = metric.getType();
        boolean gauge = type == MetricDataType.LONG_GAUGE || type == MetricDataType.DOUBLE_GAUGE;
        String base = base(metric.getName(), metric.getUnit(), gauge);
        return switch (type) {
            case LONG_SUM -> List.of(metric.getLongSumData().isMonotonic() ? base + "_total" : base);
            case DOUBLE_SUM -> List.of(metric.getDoubleSumData().isMonotonic() ? base + "_total" : base);
            case HISTOGRAM, EXPONENTIAL_HISTOGRAM -> List.of(base + "_bucket", base + "_sum", base + "_count");
            case SUMMARY -> List.of(base, base + "_sum", base + "_count");
            default -> List.of(base);
        };
    }

    /**
     * The name with the unit appended: characters Prometheus does not allow become {@code _} (one for a run of
     * them); an annotation in braces is no unit; {@code 1} is {@code ratio} on a gauge and nothing otherwise; a
     * UCUM unit gets its Prometheus word, {@code a/b} becomes {@code a_per_b}; nothing is added when the name already
     * ends with it.
     */
    static String base(String name, String unit, boolean gauge) {
        String base = sanitize(name);
        String suffix = unitSuffix(unit == null ? "" : unit, gauge);
        return suffix.isEmpty() || base.endsWith("_" + suffix) ? base : base + "_" + suffix;
    }

    private static String unitSuffix(String unit, boolean gauge) {
        String plain = unit.replaceAll("\\{[^}]*}", "").strip();
        if (plain.equals("1")) {
            return gauge ? "ratio" : "";
        }
        int slash = plain.indexOf('/');
        String main = slash < 0 ? plain : plain.substring(0, slash);
        String per = slash < 0 ? "" : plain.substring(slash + 1);
        String mainWord = main.isEmpty() || main.equals("1") ? "" : sanitize(MAIN_UNITS.getOrDefault(main, main));
        String perWord = per.isEmpty() ? "" : "per_" + sanitize(PER_UNITS.getOrDefault(per, per));
        return mainWord.isEmpty() ? perWord : perWord.isEmpty() ? mainWord : mainWord + "_" + perWord;
    }

    private static final Map<String, String> MAIN_UNITS = Map.ofEntries(
            Map.entry("d", "days"), Map.entry("h", "hours"), Map.entry("min", "minutes"), Map.entry("s", "seconds"),
            Map.entry("ms", "milliseconds"), Map.entry("us", "microseconds"), Map.entry("ns", "nanoseconds"),
            Map.entry("By", "bytes"), Map.entry("KiBy", "kibibytes"), Map.entry("MiBy", "mebibytes"),
            Map.entry("GiBy", "gibibytes"), Map.entry("KBy", "kilobytes"), Map.entry("MBy", "megabytes"),
            Map.entry("GBy", "gigabytes"), Map.entry("m", "meters"), Map.entry("V", "volts"),
            Map.entry("A", "amperes"), Map.entry("J", "joules"), Map.entry("W", "watts"), Map.entry("g", "grams"),
            Map.entry("Cel", "celsius"), Map.entry("Hz", "hertz"), Map.entry("%", "percent"));
    private static final Map<String, String> PER_UNITS = Map.of("s", "second", "m", "minute", "h", "hour",
            "d", "day", "w", "week", "mo", "month", "y", "year");

    private static String sanitize(String name) {
        return name.replaceAll("[^A-Za-z0-9_:]+", "_").replaceAll("_+", "_").replaceAll("^_|_$", "");
    }

    /** An attribute key as a Prometheus label: other characters become {@code _}; a leading digit gets {@code key_}. */
    static String label(String key) {
        String label = key.replaceAll("[^A-Za-z0-9_]", "_");
        return Character.isDigit(label.charAt(0)) ? "key_" + label : label;
    }
}
