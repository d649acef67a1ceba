package dev.baton.impl.telemetry;

import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.impl.stats.MinuteSeries;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What each finished request costs its observers: nothing, the operator statistics, the console's per-minute
 * aggregates, or
 * OpenTelemetry spans and metrics (an SDK whose span exporter discards, so the cost is Baton's
 * and the SDK's, not an exporter's). The record is a recovered request: two failed attempts on
 * the primary, then the standby served.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ObserverBenchmark {

    private RequestRecord record;
    private EngineObserver none;
    private EngineObserver stats;
    private EngineObserver console;
    private EngineObserver otel;

    @Setup
    public void setUp() {
        Instant t = Instant.parse("2026-11-30T06:00:00Z");
        record = new RequestRecord("req_0123456789abcdef01234567", t, true, 200, null, "demo", "demo",
                new ServedBy("gpt-5.4-mini", "openai", "standby", "standby_a", "demo"),
                List.of(failed(t, 0), failed(t.plusMillis(300), 1),
                        new AttemptRecord("standby/gpt-5.4-mini", "standby", "openai", "gpt-5.4-mini", "standby_a", 0,
                                t.plusMillis(700), 640, null, 200, null, null, null, null, false, false)),
                List.of(), false, false, null, 1400, null, false, null, null, RequestRecord.REQUEST);
        none = EngineObserver.NONE;
        stats = new ConnectionStats(Clock.systemUTC());
        console = new MinuteSeries(Clock.systemUTC());
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(SpanExporter.composite())).build())
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(InMemoryMetricReader.create()).build())
                .build();
        otel = new OtelObserver(sdk);
    }

    private static AttemptRecord failed(Instant at, int retry) {
        return new AttemptRecord("primary/gpt-5.4-mini", "primary", "openai", "gpt-5.4-mini", "primary", retry, at,
                250, FailureKind.SERVER_ERROR, 503, "server_error", null, "The server is overloaded.", null, false, false);
    }

    @Benchmark
    public void noObserver() {
        none.finished(record, none.admitted(record.id(), null));
    }

    /** The console's aggregates (only when the console is on): a route's minute, each attempt's target, the day's spend. */
    @Benchmark
    public void consoleSeries() {
        console.finished(record, null);
    }

    @Benchmark
    public void connectionStats() {
        stats.finished(record, stats.admitted(record.id(), null));
    }

    @Benchmark
    public void openTelemetry() {
        otel.finished(record, otel.admitted(record.id(), null));
    }
}
