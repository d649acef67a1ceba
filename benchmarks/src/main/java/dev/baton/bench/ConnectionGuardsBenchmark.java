package dev.baton.bench;

import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.ConnectionLimits;
import dev.baton.impl.config.HealthPolicy;
import dev.baton.impl.limits.ConnectionGuards;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * What a connection's local limits (SmallRye Fault Tolerance bulkhead and rate limit) add to
 * starting one attempt, next to a connection without limits. The limits are set so high that
 * nothing is refused: this is the price of asking.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ConnectionGuardsBenchmark {

    private static final CompletionStage<Void> ENDED = CompletableFuture.completedFuture(null);
    private static final Runnable ATTEMPT = () -> { };

    private final ConnectionGuards guards = new ConnectionGuards(List.of(
            connection("free", ConnectionLimits.NONE),
            connection("limited", new ConnectionLimits(100_000, 1_000_000, Duration.ofMillis(1)))));

    private static ConnectionConfig connection(String name, ConnectionLimits limits) {
        return new ConnectionConfig(name, "openai", URI.create("http://127.0.0.1:1/v1"), "", List.of("m"), Map.of(),
                HealthPolicy.DEFAULT, List.of(), Map.of(), Map.of(), limits);
    }

    @Benchmark
    public Object withoutLimits() {
        return guards.tryStart("free", ATTEMPT, ENDED);
    }

    @Benchmark
    public Object bulkheadAndRateLimit() {
        return guards.tryStart("limited", ATTEMPT, ENDED);
    }
}
