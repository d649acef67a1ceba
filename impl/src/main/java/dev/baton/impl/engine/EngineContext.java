package dev.baton.impl.engine;

import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.health.HealthRegistry;
import dev.baton.impl.limits.ConnectionGuards;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.RecordStore;

import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.random.RandomGenerator;

/** What every execution shares: configuration, health, budget, adapters, clock, timer. Immutable. */
record EngineContext(BatonConfig config, Map<String, ProviderAdapter> adapters, HealthRegistry health,
                     RetryBudget budget, ConnectionGuards guards, RecordStore store, Redactor redactor, InstantSource clock,
                     ScheduledExecutorService timer, RandomGenerator random, EngineObserver observer) {
}
