package dev.baton.impl.boot;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.budget.LocalLedger;
import dev.baton.impl.budget.SharedLedger;
import dev.baton.impl.budget.SpendLedger;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterStores;
import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.concurrent.DeadlineTimer;
import dev.baton.impl.concurrent.Threads;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Budget;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.health.LoggingHealthListener;
import dev.baton.impl.http.BatonHttpClient;
import dev.baton.impl.record.DurableRecordStore;
import dev.baton.impl.record.RecordStore;
import dev.baton.impl.record.RecordStores;
import dev.baton.impl.servlet.Endpoint;
import dev.baton.impl.servlet.EndpointSettings;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.impl.stats.MinuteSeries;
import dev.baton.impl.telemetry.Telemetry;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * Baton, built once from its configuration, in this order: the timer and the HTTP client, telemetry, the record
 * store, the cluster's shared view, the adapters and the engine, then (when {@code baton.endpoint.enabled}) the
 * endpoint's interceptor chain. Owns everything it built and closes it in the reverse order of need. Nothing else
 * creates any of these; the CDI bean ({@code BatonChatService}) wraps one runtime and the servlets are given its
 * {@link #endpoint()}. Thread-safe once started.
 */
public final class BatonRuntime implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BatonRuntime.class.getName());

    /**
     * What a runtime is built from: everything read at deployment, and the server's threads.
     *
     * @param providers the provider adapters found on the class path; {@code config} was validated against them
     * @param endpoint  {@code baton.endpoint.*}: the chain is built only when it is enabled
     * @param threads   the server's managed thread factory when it has one, else plain threads
     */
    public record Setup(BatonConfig config, List<ProviderAdapterFactory> providers, ClusterSettings cluster,
                        EndpointSettings endpoint, ThreadFactory threads) {
    }

    private final DeadlineTimer timer;
    private final BatonHttpClient http;
    private final RecordStore store;
    private final ConnectionStats stats;
    /** The console's per-minute aggregates, or {@code null} when the console is off. */
    private final MinuteSeries series;
    /** The cluster's shared view ({@code baton.cluster.store=redis}), or {@code null} on a node alone. */
    private final ClusterSync cluster;
    private final FailoverEngine engine;
    /** The provider adapters, to close those that hold resources (a token refresher) when Baton stops. */
    private final Map<String, ProviderAdapter> adapters;
    /** {@code null} unless the endpoint is enabled. */
    private final Endpoint endpoint;

    private BatonRuntime(Setup setup) {
        BatonConfig config = setup.config();
        ThreadFactory threads = setup.threads();
        timer = DeadlineTimer.start(threads);
        http = BatonHttpClient.start(Duration.ofSeconds(10), threads, timer);
        Telemetry telemetry = Telemetry.fromServer();
        store = RecordStores.open(config, threads);
        stats = new ConnectionStats(Clock.systemUTC());
        Clock clock = Clock.systemUTC();
        HealthListener listener = HealthListener.both(new LoggingHealthListener(), telemetry.healthListener());
        // The console's aggregates exist only when it is on: a feature not configured costs nothing per request.
        series = setup.endpoint().enabled() && setup.endpoint().console() ? new MinuteSeries(clock) : null;
        List<EngineObserver> observers = series == null ? List.of(stats, telemetry.observer())
                : List.of(stats, series, telemetry.observer());
        ClusterSettings clustered = setup.cluster();
        if (clustered.redis()) {
            // Plain threads: Lettuce's timer waits for its thread to run, and Open Liberty runs a managed thread only
            // once the application has started, which it has not while this bean is being created.
            cluster = new ClusterSync(ClusterStores.open(clustered, Threads.named(Thread::new, "baton-redis-"),
                    timer), clustered.node(), clock);
            listener = HealthListener.both(listener, cluster);
            observers = new ArrayList<>(observers);
            observers.add(cluster);
        } else {
            cluster = null;
        }
        adapters = Adapters.create(setup.providers(), http, config, clock);
        Spending spending = spending(setup, store, clock);
        engine = new FailoverEngine(FailoverEngine.Parts.of(config, adapters, store, clock, timer)
                .withListener(listener).withObserver(EngineObserver.of(observers))
                .withSpending(spending));
        telemetry.watch(engine.health());
        telemetry.watchBudgets(spending);
        telemetry.watchShares(engine.balancer());
        if (cluster != null) {
            cluster.attach(engine); // connects in the background: the application starts whether Redis answers or not
            telemetry.watchCluster(cluster::connected);
        }
        if (store instanceof DurableRecordStore durable) {
            telemetry.watchRecords(durable::written, durable::dropped, durable::failed, durable::queued);
        }
        endpoint = setup.endpoint().enabled() ? Endpoint.create(setup.endpoint(),
                new Endpoint.Parts(engine, store, stats, cluster(), series, spending), clock) : null;
    }

    /**
     * The budgets of routes, connections and (with the endpoint on) named keys, tallied on this node or, with the
     * cluster store, across the cluster; restored from a durable record store on a node alone.
     */
    private Spending spending(Setup setup, RecordStore records, Clock clock) {
        Map<String, Budget> keys = setup.endpoint().enabled() ? setup.endpoint().keyBudgets() : Map.of();
        SpendLedger ledger = cluster == null ? new LocalLedger() : new SharedLedger(cluster.store());
        Spending spending = Spending.of(setup.config(), keys, ledger, clock);
        if (records instanceof DurableRecordStore durable) {
            spending.restore(durable);
        }
        return spending;
    }

    /**
     * Builds Baton.
     *
     * @throws FailoverDefinitionException when the configuration names something the application does not have (a
     *                                     DataSource, a store's module) or cannot hold together (budgets in several
     *                                     currencies)
     */
    public static BatonRuntime start(Setup setup) {
        return new BatonRuntime(setup);
    }

    public FailoverEngine engine() {
        return engine;
    }

    /** Where records go: in memory, or through the JDBC store. */
    public RecordStore recordStore() {
        return store;
    }

    /** Every connection's recent counts, for operators' views. */
    public ConnectionStats stats() {
        return stats;
    }

    /** The cluster's shared view, or empty on a node alone. */
    public Optional<ClusterSync> cluster() {
        return Optional.ofNullable(cluster);
    }

    /** What the endpoint's servlets are given; empty unless {@code baton.endpoint.enabled=true}. */
    public Optional<Endpoint> endpoint() {
        return Optional.ofNullable(endpoint);
    }

    /**
     * Stops the cluster's sync, the adapters that hold resources, the HTTP client and the timer, then writes what the
     * record store still holds.
     */
    @Override
    public void close() {
        if (cluster != null) {
            cluster.close();
        }
        for (Map.Entry<String, ProviderAdapter> adapter : adapters.entrySet()) {
            if (adapter.getValue() instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "closing the adapter of provider " + adapter.getKey() + " failed", e);
                }
            }
        }
        http.close();
        timer.close();
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close(); // writes what is still queued, within a bounded wait
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "closing the record store failed", e);
            }
        }
    }
}
