package dev.baton.impl.engine;

import dev.baton.impl.concurrent.Publishers;
import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.exception.FailoverException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.balance.Balancer;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.concurrent.Ticker;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.health.HealthRegistry;
import dev.baton.impl.limits.ConnectionGuards;
import dev.baton.record.RequestRecord;
import dev.baton.spi.ProviderAdapter;
import dev.baton.impl.record.RecordQuery;
import dev.baton.impl.record.RecordStore;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The failover pipeline: admit ({@link Planner}), then one {@link FailoverLoop} per request for
 * plan, gate, attempt, classify, decide, answer and record. Usable without CDI. Thread-safe.
 *
 * <p>Threading: no thread is blocked per request. Attempts run on the HTTP client's threads;
 * timeouts and waits run on the scheduler it is given, which only completes futures and starts the
 * next attempt.
 */
public final class FailoverEngine {

    private static final SecureRandom IDS = new SecureRandom();
    private static final int ID_BYTES = 12;
    private static final ThreadLocal<ByteBuffer> ID_BATCH = ThreadLocal.withInitial(() -> {
        ByteBuffer batch = ByteBuffer.allocate(32 * ID_BYTES);
        batch.position(batch.limit()); // drawn at first use
        return batch;
    });

    private final Planner planner;
    private final EngineContext ctx;
    /** Probes ejected connections in the background; told of every ejection. */
    private final Prober prober = new Prober();

    /**
     * What an engine is built from.
     *
     * @param adapters  one per provider id ({@code baton.connections.<name>.provider})
     * @param clock     wall time, for records and for connections' parking and ejection
     * @param ticker    monotonic time, for deadlines and durations
     * @param scheduler runs every timeout and wait (the application's one {@code DeadlineTimer}; it stays the
     *                  caller's to close)
     * @param random    backoff jitter and balancing picks; a test gives a seeded generator (thread-safe, such as
     *                  {@code java.util.Random}) so that its picks repeat
     */
    public record Parts(BatonConfig config, Map<String, ProviderAdapter> adapters, RecordStore store,
                        InstantSource clock, Ticker ticker, Scheduler scheduler, RandomGenerator random,
                        HealthListener listener, EngineObserver observer, Spending spending) {

        /** On real time (the system's ticker, {@code scheduler} for timeouts), with no listener or observer. */
        public static Parts of(BatonConfig config, Map<String, ProviderAdapter> adapters, RecordStore store,
                               InstantSource clock, Scheduler scheduler) {
            return new Parts(config, adapters, store, clock, Ticker.SYSTEM, scheduler,
                    () -> ThreadLocalRandom.current().nextLong(), HealthListener.NONE, EngineObserver.NONE, Spending.NONE);
        }

        public Parts withTime(Ticker newTicker, Scheduler newScheduler) {
            return new Parts(config, adapters, store, clock, newTicker, newScheduler, random, listener, observer, spending);
        }

        public Parts withRandom(RandomGenerator newRandom) {
            return new Parts(config, adapters, store, clock, ticker, scheduler, newRandom, listener, observer, spending);
        }

        public Parts withListener(HealthListener newListener) {
            return new Parts(config, adapters, store, clock, ticker, scheduler, random, newListener, observer, spending);
        }

        public Parts withObserver(EngineObserver newObserver) {
            return new Parts(config, adapters, store, clock, ticker, scheduler, random, listener, newObserver, spending);
        }

        /** With budgets for keys, routes and connections ({@link Spending#NONE} by default). */
        public Parts withSpending(Spending newSpending) {
            return new Parts(config, adapters, store, clock, ticker, scheduler, random, listener, observer, newSpending);
        }
    }

    public FailoverEngine(Parts parts) {
        BatonConfig config = parts.config();
        InstantSource clock = parts.clock();
        HealthRegistry health = new HealthRegistry(config.connections(), clock,
                HealthListener.both(parts.listener(), prober));
        this.planner = new Planner(config);
        this.ctx = new EngineContext(config, Map.copyOf(parts.adapters()), health,
                new RetryBudget(config.retryBudget(), clock), new ConnectionGuards(config.connections()),
                parts.store(), Redactor.forConnections(config.connections()), clock, parts.ticker(), parts.scheduler(),
                parts.random(), parts.observer(), new Balancer(config.balance(), parts.ticker(), parts.random()),
                parts.spending());
        prober.start(ctx);
    }

    /** Answers a call as a whole. The future fails with a {@link FailoverException}. */
    public CompletableFuture<ChatResponse> complete(Call call) {
        Resolution resolution;
        try {
            resolution = admit(call);
        } catch (FailoverException refused) {
            return CompletableFuture.failedFuture(refused);
        }
        CompleteMode mode = new CompleteMode();
        String id = newId();
        // Only a body that asks for a stream is copied: without "stream" the adapters send false anyway.
        ChatRequest request = call.api() == Api.EMBEDDINGS || !call.request().stream() ? call.request()
                : call.request().withStream(false);
        return mode.start(new FailoverLoop(ctx, request, resolution, id, mode, call.caller(), exchange(call, id)));
    }

    /** A cold stream of the answer; refusals and failures arrive through {@code onError}. */
    public Flow.Publisher<ChatChunk> stream(Call call) {
        if (call.api() == Api.EMBEDDINGS) {
            return Publishers.failed(new IllegalArgumentException("embeddings are never streamed"));
        }
        Resolution resolution;
        try {
            resolution = admit(call);
        } catch (FailoverException refused) {
            return Publishers.failed(refused);
        }
        StreamMode mode = new StreamMode();
        String id = newId();
        return mode.bind(new FailoverLoop(ctx, call.request().withStream(true), resolution, id, mode, call.caller(),
                exchange(call, id)));
    }

    public Optional<RequestRecord> findRecord(String id) {
        return ctx.store().find(id);
    }

    /** The records {@code query} asks for, newest first, from the engine's {@link RecordStore}. */
    public List<RequestRecord> searchRecords(RecordQuery query) {
        return ctx.store().search(query);
    }

    /**
     * The engine's scheduler, for the endpoint's own short deadlines around a request (the body
     * read limit). Whatever runs on it must not block.
     */
    public Scheduler scheduler() {
        return ctx.scheduler();
    }

    public HealthRegistry health() {
        return ctx.health();
    }

    /** The last background probes of {@code connection}, newest first (empty for an unknown connection). */
    public List<Prober.Probe> probes(String connection) {
        return prober.history(connection);
    }

    /** Balancing state: attempts in flight per target, and the shares of weighted and adaptive tiers. */
    public Balancer balancer() {
        return ctx.balancer();
    }

    /**
     * Lets {@code lease} decide which node of a cluster sends each due background probe (by default this node
     * always does). Set before the first request.
     */
    public void shareProbes(ProbeLease lease) {
        prober.lease(lease);
    }

    /** Another node moved {@code connection}'s next probe (see {@code ConnectionHealth.adopt}): schedule it again. */
    public void probeMoved(String connection) {
        prober.schedule(connection);
    }

    public BatonConfig config() {
        return ctx.config();
    }

    private Resolution admit(Call call) {
        Resolution resolution = planner.admit(call.request(), call.policy(), call.api());
        if (call.api() == Api.EMBEDDINGS) {
            oneModel(resolution);
        }
        ctx.budget().deposit();
        if (call.callerRetried()) {
            // A client retrying a request we may already have retried: it spends the same budget.
            ctx.budget().tryWithdraw();
        }
        return resolution;
    }

    /** Embeddings fail over between accounts of one model only: vectors of two models are not comparable. */
    private static void oneModel(Resolution resolution) {
        var models = resolution.candidates().stream().map(Candidate::model).distinct().toList();
        if (models.size() > 1) {
            throw RequestRejectedException.invalidRequest((resolution.routeName() == null ? "`model`"
                    : "route `" + resolution.routeName() + "`") + " reaches the models " + models + "; embeddings "
                    + "fail over only between accounts of one model, since vectors of two models do not mix", "model");
        }
    }

    private Exchange exchange(Call call, String id) {
        return Exchange.of(call.api(), id, ctx.clock().instant().getEpochSecond());
    }

    /**
     * Unguessable (a record is fetched by its id): 96 bits from {@link SecureRandom}, drawn 32 ids at a time per thread,
     * since each draw takes the generator's lock and, now and then, a read of the system's source. The batch is a JDK
     * type, so a server's pooled thread holding one keeps no class of the application after it is undeployed.
     */
    private static String newId() {
        ByteBuffer batch = ID_BATCH.get();
        if (!batch.hasRemaining()) {
            IDS.nextBytes(batch.array());
            batch.clear();
        }
        int at = batch.position();
        batch.position(at + ID_BYTES);
        String id = "req_" + HexFormat.of().formatHex(batch.array(), at, at + ID_BYTES);
        Arrays.fill(batch.array(), at, at + ID_BYTES, (byte) 0); // an id given out is not kept
        return id;
    }
}
