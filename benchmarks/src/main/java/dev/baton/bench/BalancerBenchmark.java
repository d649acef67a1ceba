package dev.baton.bench;

import dev.baton.impl.balance.Balancer;
import dev.baton.impl.balance.Pool;
import dev.baton.impl.concurrent.Ticker;
import dev.baton.impl.config.Balance;
import dev.baton.impl.config.BatonConfig.BalanceSettings;
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

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * What ordering one tier of three targets costs per request under each strategy, and what the
 * balancer's bookkeeping of one attempt (start and end) costs. Priority is the plan without
 * balancing: the list as it came.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BalancerBenchmark {

    private static final List<String> TIER = List.of("openai-a/gpt-5.4-mini", "openai-b/gpt-5.4-mini",
            "openai-c/gpt-5.4-mini");
    private static final Pool POOL = Pool.tier("chat", 1);

    private final Balancer balancer = new Balancer(BalanceSettings.DEFAULT, Ticker.SYSTEM,
            () -> ThreadLocalRandom.current().nextLong());

    @Setup
    public void balanceTheTier() {
        order(Balance.ADAPTIVE);
    }

    private List<String> order(Balance balance) {
        return balancer.order(balance, POOL, TIER, t -> t, t -> t.startsWith("openai-a") ? 3 : 1, "conversation-42");
    }

    @Benchmark
    public Object priority() {
        return order(Balance.PRIORITY);
    }

    @Benchmark
    public Object weighted() {
        return order(Balance.WEIGHTED);
    }

    @Benchmark
    public Object adaptive() {
        return order(Balance.ADAPTIVE);
    }

    @Benchmark
    public Object leastBusy() {
        return order(Balance.LEAST_BUSY);
    }

    @Benchmark
    public Object sticky() {
        return order(Balance.STICKY);
    }

    /** A target only ever tried in priority order: its in-flight count, nothing more. */
    @Benchmark
    public void attemptBookkeeping() {
        balancer.started("openai-z/gpt-5.4-mini");
        balancer.ended("openai-z/gpt-5.4-mini", null, 250_000_000L);
    }

    /** A target of a balanced tier: its in-flight count and the outcome bucket the strategies read. */
    @Benchmark
    public void attemptBookkeepingBalanced() {
        balancer.started("openai-a/gpt-5.4-mini");
        balancer.ended("openai-a/gpt-5.4-mini", null, 250_000_000L);
    }
}
