package dev.baton.impl.engine;

import dev.baton.impl.balance.Balancer;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.concurrent.Ticker;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.health.HealthRegistry;
import dev.baton.impl.limits.ConnectionGuards;
import dev.baton.spi.ProviderAdapter;
import dev.baton.impl.record.RecordStore;

import java.time.InstantSource;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * What every request shares: configuration, health, retry budget, adapters, the balancer, the spending budgets, and
 * time (the wall clock for records and health, the ticker for deadlines and durations, the scheduler for timeouts and
 * waits). Immutable.
 */
record EngineContext(BatonConfig config, Map<String, ProviderAdapter> adapters, HealthRegistry health,
                     RetryBudget budget, ConnectionGuards guards, RecordStore store, Redactor redactor, InstantSource clock,
                     Ticker ticker, Scheduler scheduler, RandomGenerator random, EngineObserver observer,
                     Balancer balancer, Spending spending) {
}
