package dev.baton.impl.telemetry;

import dev.baton.impl.engine.Call;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.impl.concurrent.Await;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spans and metrics of real requests through the engine, read back from the OpenTelemetry SDK's in-memory exporters. */
class OtelObserverTest {

    private static final String KEY = "sk-telemetry-secret-0123456789";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

    private FailoverEngine engine;


    private FailoverEngine start() {
        return start(Map.of());
    }

    private FailoverEngine start(Map<String, String> extra) {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.connections.a.api-key", KEY);
        props.put("baton.connections.a.eject-after", "2");
        props.putAll(extra);
        props.put("baton.routes.chat.targets", "a/m,b/m");
        props.put("baton.routes.chat.retry-backoff", "1ms");
        props.put("baton.models.m.price.input", "2.00");
        props.put("baton.models.m.price.output", "8.00");
        OtelObserver observer = new OtelObserver(otel.getOpenTelemetry());
        engine = EngineFixture.engine(props, java.time.Clock.systemUTC(), observer, observer);
        observer.watch(engine.health());
        return engine;
    }

    @Test
    void aRecoveredRequestIsOneSpanWithAChildPerAttemptUnderTheCallersSpan() throws Exception {
        start();
        sim.account("a").setDefault(Behavior.serverError());
        Span caller = otel.getOpenTelemetry().getTracer("test").spanBuilder("caller").startSpan();
        ChatResponse answer;
        try (Scope ignored = caller.makeCurrent()) {
            answer = engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS);
        } finally {
            caller.end();
        }

        List<SpanData> spans = otel.getSpans();
        SpanData request = spans.stream().filter(s -> s.getName().equals("chat chat")).findFirst().orElseThrow();
        assertEquals(caller.getSpanContext().getSpanId(), request.getParentSpanId(), "under the caller's span");
        assertEquals(SpanKind.INTERNAL, request.getKind());
        Attributes r = request.getAttributes();
        assertEquals("ok", r.get(AttributeKey.stringKey("baton.outcome")));
        assertEquals("standby_a", r.get(AttributeKey.stringKey("baton.position")));
        assertEquals(answer.requestId(), r.get(AttributeKey.stringKey("baton.request_id")));
        assertEquals(3L, r.get(AttributeKey.longKey("baton.attempts")));

        List<SpanData> attempts = spans.stream().filter(s -> s.getParentSpanId().equals(request.getSpanId()))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
        assertEquals(3, attempts.size(), "a, a's retry, then b");
        SpanData first = attempts.get(0);
        assertEquals(SpanKind.CLIENT, first.getKind());
        assertEquals(StatusCode.ERROR, first.getStatus().getStatusCode());
        assertEquals("server_error", first.getAttributes().get(AttributeKey.stringKey("baton.failure_kind")));
        assertEquals("a", first.getAttributes().get(AttributeKey.stringKey("baton.connection")));
        assertEquals("openai", first.getAttributes().get(AttributeKey.stringKey("gen_ai.system")));
        assertEquals(500L, first.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals(false, first.getAttributes().get(AttributeKey.booleanKey("baton.after_commit")));
        assertEquals("b", attempts.get(2).getAttributes().get(AttributeKey.stringKey("baton.connection")));
        assertTrue(request.getEndEpochNanos() >= attempts.get(2).getEndEpochNanos());
        spans.forEach(s -> assertFalse(s.getAttributes().toString().contains(KEY), "no key in any attribute"));
    }

    @Test
    void metricsCountRequestsAttemptsFallbacksAndEjections() throws Exception {
        start();
        sim.account("a").setDefault(Behavior.serverError());
        engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS);
        engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS);

        List<MetricData> metrics = otel.getMetrics();
        assertEquals(2, sum(metrics, "baton.requests",
                Attributes.of(AttributeKey.stringKey("baton.route"), "chat", AttributeKey.stringKey("baton.outcome"), "ok",
                        AttributeKey.stringKey("baton.position"), "standby_a")));
        assertEquals(2, sum(metrics, "baton.attempts", Attributes.of(AttributeKey.stringKey("baton.connection"), "a",
                AttributeKey.stringKey("baton.provider"), "openai", AttributeKey.stringKey("baton.failure_kind"), "server_error")),
                "a's first try and its retry; ejected after the second failure");
        assertEquals(1, sum(metrics, "baton.connection.fallbacks", Attributes.of(AttributeKey.stringKey("baton.connection"), "a")));
        assertEquals(1, sum(metrics, "baton.connection.requests", Attributes.of(AttributeKey.stringKey("baton.connection"), "a")));
        assertEquals(2, sum(metrics, "baton.connection.requests", Attributes.of(AttributeKey.stringKey("baton.connection"), "b")));
        assertEquals(1, sum(metrics, "baton.connection.transitions", Attributes.of(AttributeKey.stringKey("baton.connection"), "a",
                AttributeKey.stringKey("baton.transition"), "ejected")));
        assertEquals(1, gauge(metrics, "baton.connection.state", Attributes.of(AttributeKey.stringKey("baton.connection"), "a",
                AttributeKey.stringKey("baton.state"), "ejected")));
        assertEquals(1, gauge(metrics, "baton.connection.state", Attributes.of(AttributeKey.stringKey("baton.connection"), "b",
                AttributeKey.stringKey("baton.state"), "healthy")));
        assertTrue(metrics.stream().anyMatch(m -> m.getName().equals("baton.request.duration")));
        assertFalse(metrics.toString().contains(KEY), "no key in any label");
    }

    @Test
    void backgroundProbesAreCountedByOutcomeAndTracedApartFromRequests() throws Exception {
        // On real time, as in an application, with the shortest intervals the configuration allows: the prober's
        // own timer thread sends the probes over loopback, and the test waits for what they change.
        start(Map.of("baton.connections.a.probe", "background", "baton.connections.a.probe-interval", "100ms",
                "baton.connections.a.max-probe-interval", "200ms"));
        sim.account("a").setDefault(Behavior.serverError());
        engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS); // a's try and retry: ejected
        long requestsBefore = sum(otel.getMetrics(), "baton.connection.requests",
                Attributes.of(AttributeKey.stringKey("baton.connection"), "a"));
        var health = engine.health().of("a");
        Await.until("a failed probe counted", () -> sum(otel.getMetrics(), "baton.probes",
                probeOutcome("server_error")) >= 1, Duration.ofSeconds(10));
        sim.account("a").setDefault(Behavior.ok());
        Await.until("a restored by a traced probe", () -> health.snapshot().state().equals("healthy")
                && otel.getSpans().stream().anyMatch(s -> s.getName().equals("probe a")
                        && s.getStatus().getStatusCode() != StatusCode.ERROR), Duration.ofSeconds(10));

        List<MetricData> metrics = otel.getMetrics();
        assertEquals(1, sum(metrics, "baton.probes", probeOutcome("ok")));
        assertEquals(requestsBefore, sum(metrics, "baton.connection.requests",
                Attributes.of(AttributeKey.stringKey("baton.connection"), "a")), "a probe is not a request");
        SpanData probe = otel.getSpans().stream().filter(s -> s.getName().equals("probe a"))
                .filter(s -> s.getStatus().getStatusCode() != StatusCode.ERROR).findFirst().orElseThrow();
        assertEquals(SpanKind.CLIENT, probe.getKind());
        assertFalse(probe.getParentSpanContext().isValid(), "a trace of its own");
        assertEquals("ok", probe.getAttributes().get(AttributeKey.stringKey("baton.outcome")));
        assertTrue(probe.getAttributes().get(AttributeKey.stringKey("baton.request_id")).startsWith("probe_"));
        assertEquals(200L, probe.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
    }

    private static Attributes probeOutcome(String outcome) {
        return Attributes.of(AttributeKey.stringKey("baton.connection"), "a", AttributeKey.stringKey("baton.outcome"),
                outcome);
    }

    @Test
    void aWeightedTiersSharesAreAGauge() throws Exception {
        Map<String, String> props = EngineFixture.connections(sim.simulator(), "m", "a", "b");
        props.put("baton.routes.chat.targets", "a/m weight=3, b/m");
        props.put("baton.routes.chat.balance", "weighted");
        OtelObserver observer = new OtelObserver(otel.getOpenTelemetry());
        engine = EngineFixture.engine(props, java.time.Clock.systemUTC(), observer, observer);
        observer.watchShares(engine.balancer());
        engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS);

        List<MetricData> metrics = otel.getMetrics();
        double share = metrics.stream().filter(m -> m.getName().equals("baton.target.share"))
                .flatMap(m -> m.getDoubleGaugeData().getPoints().stream())
                .filter(p -> "a".equals(p.getAttributes().get(AttributeKey.stringKey("baton.connection")))
                        && "chat".equals(p.getAttributes().get(AttributeKey.stringKey("baton.route")))
                        && Long.valueOf(1).equals(p.getAttributes().get(AttributeKey.longKey("baton.tier")))
                        && "weighted".equals(p.getAttributes().get(AttributeKey.stringKey("baton.balance"))))
                .mapToDouble(io.opentelemetry.sdk.metrics.data.DoublePointData::getValue).findFirst().orElse(-1);
        assertEquals(0.75, share, 1e-9);
    }

    @Test
    void estimatedCostIsCountedByRouteConnectionServedModelAndCaller() throws Exception {
        start();
        ChatResponse first = engine.complete(new Call(ChatRequest.of("chat", "hi"), PolicyOverride.NONE, false, "team-a"))
                .get(10, TimeUnit.SECONDS);
        ChatResponse second = engine.complete(new Call(ChatRequest.of("chat", "hello there"), PolicyOverride.NONE, false, "team-a")).get(10, TimeUnit.SECONDS);
        ChatResponse anonymous = engine.complete(Call.of(ChatRequest.of("chat", "hi"))).get(10, TimeUnit.SECONDS);

        Attributes teamA = Attributes.builder().put("baton.route", "chat").put("baton.connection", "a")
                .put("baton.model", "m").put("baton.caller", "team-a").put("baton.currency", "USD")
                .put("baton.price_source", "custom").build();
        double expected = first.cost().amount().add(second.cost().amount()).doubleValue();
        assertTrue(expected > 0);
        List<MetricData> metrics = otel.getMetrics();
        assertEquals(expected, doubleSum(metrics, "baton.cost", teamA), 1e-12);
        assertEquals(anonymous.cost().amount().doubleValue(), doubleSum(metrics, "baton.cost",
                teamA.toBuilder().put("baton.caller", "none").build()), 1e-12);
        assertEquals("team-a", engine.findRecord(first.requestId()).orElseThrow().caller());
    }

    private static double doubleSum(List<MetricData> metrics, String name, Attributes attributes) {
        return metrics.stream().filter(m -> m.getName().equals(name))
                .flatMap(m -> m.getDoubleSumData().getPoints().stream())
                .filter(p -> p.getAttributes().equals(attributes)).mapToDouble(p -> p.getValue()).sum();
    }

    private static long sum(List<MetricData> metrics, String name, Attributes attributes) {
        return metrics.stream().filter(m -> m.getName().equals(name))
                .flatMap(m -> m.getLongSumData().getPoints().stream())
                .filter(p -> p.getAttributes().equals(attributes)).mapToLong(LongPointData::getValue).sum();
    }

    private static long gauge(List<MetricData> metrics, String name, Attributes attributes) {
        return metrics.stream().filter(m -> m.getName().equals(name))
                .flatMap(m -> m.getLongGaugeData().getPoints().stream())
                .filter(p -> p.getAttributes().equals(attributes)).mapToLong(LongPointData::getValue).sum();
    }
}
