package dev.baton.impl.cdi;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.exception.FailoverException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.cluster.ClusterStores;
import dev.baton.impl.concurrent.DeadlineTimer;
import dev.baton.impl.concurrent.Threads;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.health.LoggingHealthListener;
import dev.baton.impl.http.BatonHttpClient;
import dev.baton.impl.record.DurableRecordStore;
import dev.baton.impl.record.RecordStore;
import dev.baton.impl.record.RecordStores;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.impl.telemetry.Telemetry;
import dev.baton.record.RequestRecord;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadFactory;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The one engine of the application. Applications inject {@link FailoverChatService}, which
 * {@link ChatServiceProducer} binds to the injection point's route and policy; this bean's own
 * methods apply the configured policies only (the endpoint uses them).
 */
@ApplicationScoped
@Typed(BatonChatService.class)
public class BatonChatService implements FailoverChatService {

    /** Jakarta Concurrency's default thread factory, bound by both servers when their concurrency feature is on. */
    static final String DEFAULT_THREAD_FACTORY = "java:comp/DefaultManagedThreadFactory";
    private static final System.Logger LOG = System.getLogger(BatonChatService.class.getName());

    @Inject
    BatonExtension extension;

    private DeadlineTimer timer;
    private BatonHttpClient http;
    private FailoverEngine engine;
    private RecordStore store;
    private ConnectionStats stats;
    private TransactionCheck transactions;
    /** The cluster's shared view ({@code baton.cluster.store=redis}), or {@code null} on a node alone. */
    private ClusterSync cluster;

    @PostConstruct
    void start() {
        BatonConfig config = extension.config();
        ThreadFactory threads = containerThreads();
        timer = DeadlineTimer.start(threads);
        http = BatonHttpClient.start(Duration.ofSeconds(10), threads, timer);
        Telemetry telemetry = Telemetry.fromServer();
        transactions = TransactionCheck.lookUp();
        store = RecordStores.open(config, threads);
        stats = new ConnectionStats(Clock.systemUTC());
        Clock clock = Clock.systemUTC();
        HealthListener listener = HealthListener.both(new LoggingHealthListener(), telemetry.healthListener());
        List<EngineObserver> observers = List.of(stats, telemetry.observer());
        ClusterSettings clustered = extension.cluster();
        if (clustered.redis()) {
            // Plain threads: Lettuce's timer waits for its thread to run, and Open Liberty runs a managed thread only
            // once the application has started, which it has not while this bean is being created.
            cluster = new ClusterSync(ClusterStores.open(clustered, Threads.named(Thread::new, "baton-redis-"),
                    timer), clustered.node(), clock);
            listener = HealthListener.both(listener, cluster);
            observers = List.of(stats, telemetry.observer(), cluster);
        }
        engine = new FailoverEngine(config, Adapters.create(extension.providers(), http, config, clock), store, clock,
                timer, listener, EngineObserver.of(observers));
        telemetry.watch(engine.health());
        telemetry.watchShares(engine.balancer());
        if (cluster != null) {
            cluster.attach(engine); // connects in the background: the application starts whether Redis answers or not
            telemetry.watchCluster(cluster::connected);
        }
        if (store instanceof DurableRecordStore durable) {
            telemetry.watchRecords(durable::written, durable::dropped, durable::failed, durable::queued);
        }
    }

    /** Created when the application starts, so a DataSource that cannot be found fails the start, not a request. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object started) {
        engine.health(); // touching the bean creates it
    }

    /**
     * The server's default {@code ManagedThreadFactory} (Jakarta Concurrency) when it has one, so Baton's threads are
     * the server's to see and manage; else plain threads. Baton never submits tasks to a managed executor: a response
     * is handled on the I/O thread that read it, and nothing in the path blocks.
     */
    private static ThreadFactory containerThreads() {
        try {
            if (new InitialContext().lookup(DEFAULT_THREAD_FACTORY) instanceof ThreadFactory managed) {
                LOG.log(System.Logger.Level.DEBUG, "Baton's threads come from " + DEFAULT_THREAD_FACTORY);
                return managed;
            }
        } catch (NamingException | RuntimeException notThere) {
            // no Jakarta Concurrency in this server (or outside one): plain threads
        }
        LOG.log(System.Logger.Level.INFO, "No ManagedThreadFactory at " + DEFAULT_THREAD_FACTORY
                + "; Baton starts its own daemon threads");
        return Thread::new;
    }

    @PreDestroy
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
        http.close();
        timer.close();
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close(); // writes what is still queued, within a bounded wait
            } catch (Exception e) {
                System.getLogger(BatonChatService.class.getName()).log(System.Logger.Level.WARNING,
                        "closing the record store failed", e);
            }
        }
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        return complete(request, PolicyOverride.NONE);
    }

    ChatResponse complete(ChatRequest request, PolicyOverride policy) {
        CompletableFuture<ChatResponse> answer = engine.complete(Call.of(request).withPolicy(policy));
        try {
            return answer.get();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            answer.cancel(true); // e.g. a MicroProfile @Timeout around the call: stop the attempt in flight too
            Thread.currentThread().interrupt();
            throw new CompletionException("interrupted while waiting for " + request.model(), e);
        }
    }

    @Override
    public CompletionStage<ChatResponse> completeAsync(ChatRequest request) {
        return engine.complete(Call.of(request));
    }

    @Override
    public Flow.Publisher<ChatChunk> stream(ChatRequest request) {
        return engine.stream(Call.of(request));
    }

    @Override
    public Optional<RequestRecord> findRecord(String requestId) {
        return engine.findRecord(requestId);
    }

    /** Warns about blocking calls made inside a transaction. */
    TransactionCheck transactions() {
        return transactions;
    }

    /** Where records go: in memory, or through the JDBC store. */
    public RecordStore recordStore() {
        return store;
    }

    /** The engine, for the endpoint and operators' views. */
    public FailoverEngine engine() {
        return engine;
    }

    /** The cluster's shared view, or empty on a node alone. */
    public Optional<ClusterSync> cluster() {
        return Optional.ofNullable(cluster);
    }

    /** Every connection's recent counts, for operators' views. */
    public ConnectionStats stats() {
        return stats;
    }

    private static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof FailoverException e) {
            return e;
        }
        return cause instanceof RuntimeException e ? e : new CompletionException(cause);
    }
}
