package dev.baton.impl.telemetry;

import dev.baton.ChatRequest;
import dev.baton.impl.balance.Balancer;
import dev.baton.impl.budget.Account;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.health.HealthRegistry;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleCounter;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Spans and metrics through the OpenTelemetry API that MicroProfile Telemetry provides. Spans are
 * built when a request ends, from its record, with the real start and end times, under the
 * tracing context the caller had at admission: one span per request, one child per attempt. The
 * GenAI semantic conventions are used where they fit; everything Baton-specific is under
 * {@code baton.}. Attribute values are connection, route and model names, never credentials.
 *
 * <p>Only loaded when the OpenTelemetry API is on the class path ({@link Telemetry}).
 */
final class OtelObserver implements EngineObserver, HealthListener {

    static final String SCOPE = "dev.baton";

    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    private static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    private static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    private static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    private static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("baton.request_id");
    private static final AttributeKey<String> ROUTE = AttributeKey.stringKey("baton.route");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("baton.outcome");
    private static final AttributeKey<String> POSITION = AttributeKey.stringKey("baton.position");
    private static final AttributeKey<String> CONNECTION = AttributeKey.stringKey("baton.connection");
    private static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("baton.provider");
    private static final AttributeKey<String> FAILURE_KIND = AttributeKey.stringKey("baton.failure_kind");
    private static final AttributeKey<Boolean> AFTER_COMMIT = AttributeKey.booleanKey("baton.after_commit");
    private static final AttributeKey<Long> RETRY = AttributeKey.longKey("baton.retry");
    private static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey("baton.attempts");
    private static final AttributeKey<Boolean> STREAM = AttributeKey.booleanKey("baton.stream");
    private static final AttributeKey<String> STATE = AttributeKey.stringKey("baton.state");
    private static final AttributeKey<String> TRANSITION = AttributeKey.stringKey("baton.transition");
    private static final AttributeKey<String> BALANCE = AttributeKey.stringKey("baton.balance");
    private static final AttributeKey<Long> TIER = AttributeKey.longKey("baton.tier");
    private static final AttributeKey<String> MODEL = AttributeKey.stringKey("baton.model");
    private static final AttributeKey<String> CALLER = AttributeKey.stringKey("baton.caller");
    private static final AttributeKey<String> CURRENCY = AttributeKey.stringKey("baton.currency");
    private static final AttributeKey<String> PRICE_SOURCE = AttributeKey.stringKey("baton.price_source");
    private static final AttributeKey<String> BUDGET_SCOPE = AttributeKey.stringKey("baton.budget.scope");
    private static final AttributeKey<String> BUDGET_NAME = AttributeKey.stringKey("baton.budget.name");
    private static final Map<String, String> GEN_AI_SYSTEMS = Map.of("openai", "openai", "anthropic", "anthropic",
            "azure-openai", "az.ai.openai");
    private static final List<String> STATES = List.of("healthy", "parked", "ejected", "probe_due", "probing");

    private final Tracer tracer;
    private final LongCounter requests;
    private final LongCounter attempts;
    private final LongCounter connectionRequests;
    private final LongCounter fallbacks;
    private final LongCounter transitions;
    private final LongCounter retryRefusals;
    private final LongCounter probes;
    private final DoubleCounter cost;
    private final DoubleHistogram duration;
    private final DoubleHistogram firstToken;
    private final DoubleHistogram attemptDuration;
    private final Meter meter;

    OtelObserver(OpenTelemetry otel) {
        this.tracer = otel.getTracer(SCOPE);
        this.meter = otel.getMeter(SCOPE);
        requests = meter.counterBuilder("baton.requests").setUnit("{request}")
                .setDescription("Requests answered, by route, outcome (ok, degraded, error) and served position").build();
        attempts = meter.counterBuilder("baton.attempts").setUnit("{attempt}")
                .setDescription("Upstream attempts, by connection and failure kind (none when it served)").build();
        connectionRequests = meter.counterBuilder("baton.connection.requests").setUnit("{request}")
                .setDescription("Requests that attempted the connection; the denominator of its fallback rate").build();
        fallbacks = meter.counterBuilder("baton.connection.fallbacks").setUnit("{request}")
                .setDescription("Requests that failed on the connection and were then served by another target").build();
        transitions = meter.counterBuilder("baton.connection.transitions").setUnit("{transition}")
                .setDescription("Ejections, parkings and restorations of a connection").build();
        retryRefusals = meter.counterBuilder("baton.retry_budget.refusals").setUnit("{retry}")
                .setDescription("Same-target retries the retry budget refused").build();
        probes = meter.counterBuilder("baton.probes").setUnit("{probe}")
                .setDescription("Background probes of ejected connections, by connection and outcome (ok, a failure "
                        + "kind, or not_sent when the connection's own limits refused it); not counted as requests").build();
        cost = meter.counterBuilder("baton.cost").ofDoubles().setUnit("{currency}")
                .setDescription("Estimated provider cost of served requests, by route, connection, served model, caller"
                        + " (the named gateway key, or none), currency and price source").build();
        duration = meter.histogramBuilder("baton.request.duration").setUnit("s")
                .setDescription("Time from admission to the end of the answer").build();
        firstToken = meter.histogramBuilder("baton.time_to_first_token").setUnit("s")
                .setDescription("Time from admission to the first output reaching the caller").build();
        attemptDuration = meter.histogramBuilder("gen_ai.client.operation.duration").setUnit("s")
                .setDescription("Duration of one upstream attempt").build();
    }

    /** Reports every connection's state as a gauge: 1 for its current state, 0 for the others. */
    void watch(HealthRegistry health) {
        meter.gaugeBuilder("baton.connection.state").ofLongs().setUnit("1")
                .setDescription("1 for the connection's current state (healthy, parked, ejected, probe_due, probing), else 0")
                .buildWithCallback(gauge -> {
                    for (ConnectionHealth.Snapshot s : health.snapshots()) {
                        for (String state : STATES) {
                            gauge.record(state.equals(s.rotation()) ? 1 : 0,
                                    Attributes.of(CONNECTION, s.connection(), STATE, state));
                        }
                    }
                });
    }

    /** Reports the share of every target in every balanced tier as a gauge (0–1), as last applied. */
    void watchShares(Balancer balancer) {
        meter.gaugeBuilder("baton.target.share").setUnit("1")
                .setDescription("A target's share of its balanced tier (weighted, adaptive), 0 while it is not usable")
                .buildWithCallback(gauge -> {
                    for (Balancer.Share s : balancer.shares()) {
                        int slash = s.target().indexOf('/');
                        AttributesBuilder attributes = Attributes.builder()
                                .put(CONNECTION, s.target().substring(0, slash))
                                .put(REQUEST_MODEL, s.target().substring(slash + 1))
                                .put(BALANCE, s.balance().wireName());
                        if (s.pool().route() != null) {
                            attributes.put(ROUTE, s.pool().route()).put(TIER, (long) s.pool().tier());
                        }
                        gauge.record(s.share(), attributes.build());
                    }
                });
    }

    /** {@code baton.cluster.connected}: whether this node shares connection states with the cluster now. */
    void watchCluster(BooleanSupplier connected) {
        meter.gaugeBuilder("baton.cluster.connected").ofLongs().setUnit("1")
                .setDescription("1 while the cluster store (Redis) answers, 0 while this node serves on its own state")
                .buildWithCallback(gauge -> gauge.record(connected.getAsBoolean() ? 1 : 0));
    }

    /**
     * {@code baton.budget.used}: the fraction of every budget spent in its current period, as this node knows it
     * ({@link Spending#used}). Not registered at all when no budget is configured.
     */
    void watchBudgets(Spending spending) {
        List<Account> accounts = spending.accounts();
        if (accounts.isEmpty()) {
            return;
        }
        List<Attributes> attributes = accounts.stream()
                .map(a -> Attributes.of(BUDGET_SCOPE, a.scope().word(), BUDGET_NAME, a.name())).toList();
        meter.gaugeBuilder("baton.budget.used").setUnit("1")
                .setDescription("The fraction of the budget spent in its current period (key, route or connection),"
                        + " as this node knows it")
                .buildWithCallback(gauge -> {
                    for (int i = 0; i < accounts.size(); i++) {
                        gauge.record(spending.used(accounts.get(i)), attributes.get(i));
                    }
                });
    }

    /** The record store's counters; {@code baton.records} by {@code baton.state} (written, dropped, failed) and queued. */
    void watchRecords(LongSupplier written, LongSupplier dropped, LongSupplier failed, LongSupplier queued) {
        meter.counterBuilder("baton.records").setUnit("{record}")
                .setDescription("Request records by what became of them: written, dropped (queue full), failed (database)")
                .buildWithCallback(counter -> {
                    counter.record(written.getAsLong(), Attributes.of(STATE, "written"));
                    counter.record(dropped.getAsLong(), Attributes.of(STATE, "dropped"));
                    counter.record(failed.getAsLong(), Attributes.of(STATE, "failed"));
                });
        meter.gaugeBuilder("baton.records.queued").ofLongs().setUnit("{record}")
                .setDescription("Request records waiting to be written")
                .buildWithCallback(gauge -> gauge.record(queued.getAsLong()));
    }

    @Override
    public Object admitted(String requestId, ChatRequest request) {
        return Context.current();
    }

    @Override
    public void finished(RequestRecord record, Object admission) {
        Context parent = admission instanceof Context c ? c : Context.current();
        String route = record.routeName() != null ? record.routeName() : "model:" + record.modelRequested();
        String position = record.served().map(s -> s.position()).orElse("none");
        requests.add(1, Attributes.of(ROUTE, route, OUTCOME, record.status(), POSITION, position));
        duration.record(record.latencyMillis() / 1000.0, Attributes.of(ROUTE, route, OUTCOME, record.status()));
        if (record.firstTokenMillis() != null) {
            firstToken.record(record.firstTokenMillis() / 1000.0, Attributes.of(ROUTE, route));
        }
        countAttempts(record);
        countCost(record, route);
        trace(record, parent, route, position);
    }

    private void countCost(RequestRecord record, String route) {
        if (record.cost() == null || record.servedBy() == null) {
            return;
        }
        cost.add(record.cost().amount().doubleValue(), Attributes.builder().put(ROUTE, route)
                .put(CONNECTION, record.servedBy().connection()).put(MODEL, record.servedBy().model())
                .put(CALLER, record.caller() == null ? "none" : record.caller())
                .put(CURRENCY, record.cost().currency()).put(PRICE_SOURCE, record.cost().priceSource()).build());
    }

    private void countAttempts(RequestRecord record) {
        Set<String> tried = new HashSet<>();
        Set<String> failed = new HashSet<>();
        for (AttemptRecord a : record.attempts()) {
            String kind = a.kind() == null ? "none" : a.kind().wireName();
            attempts.add(1, Attributes.of(CONNECTION, a.connection(), PROVIDER, a.provider(), FAILURE_KIND, kind));
            attemptDuration.record(a.latencyMillis() / 1000.0, attemptAttributes(a).build());
            tried.add(a.connection());
            if (a.kind() != null && !a.afterCommit()) {
                failed.add(a.connection());
            }
        }
        String servedBy = record.served().map(s -> s.connection()).orElse(null);
        for (String connection : tried) {
            connectionRequests.add(1, Attributes.of(CONNECTION, connection));
            if (servedBy != null && !servedBy.equals(connection) && failed.contains(connection)) {
                fallbacks.add(1, Attributes.of(CONNECTION, connection));
            }
        }
    }

    private void trace(RequestRecord record, Context parent, String route, String position) {
        Instant start = record.startedAt();
        Span span = tracer.spanBuilder("chat " + (record.routeName() != null ? record.routeName() : record.modelRequested()))
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(start)
                .setAttribute(OPERATION, "chat")
                .setAttribute(REQUEST_MODEL, String.valueOf(record.modelRequested()))
                .setAttribute(REQUEST_ID, record.id())
                .setAttribute(ROUTE, route)
                .setAttribute(OUTCOME, record.status())
                .setAttribute(POSITION, position)
                .setAttribute(STREAM, record.stream())
                .setAttribute(ATTEMPTS, (long) record.attempts().size())
                .startSpan();
        record.served().ifPresent(s -> {
            span.setAttribute(RESPONSE_MODEL, s.model());
            span.setAttribute(CONNECTION, s.connection());
        });
        if (record.usage() != null) {
            tokens(record.usage(), "prompt_tokens", span, INPUT_TOKENS);
            tokens(record.usage(), "completion_tokens", span, OUTPUT_TOKENS);
        }
        if (!record.ok()) {
            span.setStatus(StatusCode.ERROR, record.errorCode() == null ? "failed" : record.errorCode());
            if (record.errorCode() != null) {
                span.setAttribute(ERROR_TYPE, record.errorCode());
            }
        }
        Context inRequest = parent.with(span);
        Instant end = start.plus(Duration.ofMillis(record.latencyMillis()));
        for (AttemptRecord a : record.attempts()) {
            Span attempt = tracer.spanBuilder("chat " + a.model())
                    .setParent(inRequest)
                    .setSpanKind(SpanKind.CLIENT)
                    .setStartTimestamp(a.startedAt())
                    .setAllAttributes(attemptAttributes(a).put(REQUEST_ID, record.id()).put(POSITION, a.position())
                            .put(RETRY, (long) a.retry()).put(AFTER_COMMIT, a.afterCommit()).build())
                    .startSpan();
            if (a.httpStatus() > 0) {
                attempt.setAttribute(HTTP_STATUS, (long) a.httpStatus());
            }
            if (a.kind() != null) {
                attempt.setStatus(StatusCode.ERROR, a.kind().wireName());
            }
            Instant attemptEnd = a.startedAt().plusMillis(a.latencyMillis());
            attempt.end(attemptEnd);
            if (attemptEnd.isAfter(end)) {
                end = attemptEnd; // the two are measured in whole milliseconds from different clocks
            }
        }
        span.end(end);
    }

    private static AttributesBuilder attemptAttributes(AttemptRecord a) {
        AttributesBuilder b = Attributes.builder()
                .put(OPERATION, "chat")
                .put(SYSTEM, GEN_AI_SYSTEMS.getOrDefault(a.provider(), a.provider()))
                .put(REQUEST_MODEL, a.model())
                .put(CONNECTION, a.connection())
                .put(PROVIDER, a.provider());
        if (a.kind() != null) {
            b.put(FAILURE_KIND, a.kind().wireName()).put(ERROR_TYPE, a.kind().wireName());
        }
        return b;
    }

    private static void tokens(JsonObject usage, String field, Span span, AttributeKey<Long> key) {
        if (usage.get(field) instanceof JsonNumber n) {
            span.setAttribute(key, n.longValue());
        }
    }

    @Override
    public void retryRefused(String requestId, String connection) {
        retryRefusals.add(1, Attributes.of(CONNECTION, connection));
    }

    @Override
    public void probed(RequestRecord probe) {
        AttemptRecord a = probe.attempts().get(0);
        String outcome = a.kind() == null ? "ok" : a.kind().wireName();
        probes.add(1, Attributes.of(CONNECTION, a.connection(), OUTCOME, outcome));
        Span span = tracer.spanBuilder("probe " + a.connection())
                .setNoParent() // nobody asked for it: a trace of its own
                .setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(a.startedAt())
                .setAllAttributes(attemptAttributes(a).put(REQUEST_ID, probe.id()).put(OUTCOME, outcome).build())
                .startSpan();
        if (a.httpStatus() > 0) {
            span.setAttribute(HTTP_STATUS, (long) a.httpStatus());
        }
        if (probe.usage() != null) {
            tokens(probe.usage(), "prompt_tokens", span, INPUT_TOKENS);
            tokens(probe.usage(), "completion_tokens", span, OUTPUT_TOKENS);
        }
        if (a.kind() != null) {
            span.setStatus(StatusCode.ERROR, a.kind().wireName());
        }
        span.end(a.startedAt().plusMillis(a.latencyMillis()));
    }

    @Override
    public void probeNotSent(String connection, String reason) {
        probes.add(1, Attributes.of(CONNECTION, connection, OUTCOME, "not_sent"));
    }

    @Override
    public void ejected(String connection, Duration coolOff, String cause) {
        transitions.add(1, Attributes.of(CONNECTION, connection, TRANSITION, "ejected"));
    }

    @Override
    public void parked(String connection, Instant until, String cause) {
        transitions.add(1, Attributes.of(CONNECTION, connection, TRANSITION, "parked"));
    }

    @Override
    public void restored(String connection) {
        transitions.add(1, Attributes.of(CONNECTION, connection, TRANSITION, "restored"));
    }

    /** The application's OpenTelemetry from CDI (MicroProfile Telemetry), or {@code null} when there is none. */
    static OtelObserver fromCdi() {
        var instance = jakarta.enterprise.inject.spi.CDI.current().select(OpenTelemetry.class);
        return instance.isResolvable() ? new OtelObserver(instance.get()) : null;
    }
}
