package dev.baton.impl.engine;

import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.Durations;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.health.HealthListener;
import dev.baton.wire.OpenAiShape;
import dev.baton.impl.limits.ConnectionGuards;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTarget;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;

import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Background probes of ejected connections (probe mode {@code background}): while a connection is
 * out, Baton itself sends it a minimal request on the engine's scheduler when
 * {@link ConnectionHealth#nextProbeAt()} comes, so that no caller pays for finding out whether it
 * is back. A probe asks one of the connection's models for at most one output token. Its outcome
 * goes to the connection's health like an attempt's: a success (or any coherent answer) restores
 * the connection at once, a counted failure keeps it out and doubles the wait, up to
 * {@code max-probe-interval}.
 *
 * <p>A probe goes through the connection's own limits (rate limit, bulkhead) like a request and is
 * not sent when they refuse; it is never sent while the connection is parked; it never touches
 * the retry budget. Each sent probe leaves a record of kind {@code probe} and is shown to the
 * observer; the last few are kept per connection for the operator endpoint.
 *
 * <p>At most one probe per connection is scheduled or in flight: the health state machine hands
 * the probe out once ({@link ConnectionHealth#startProbe()}), and a new schedule replaces the old.
 * Thread-safe.
 */
public final class Prober implements HealthListener {

    /** How long a probe may take: a provider that cannot produce one token in this time is not back. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    /** Probes kept per connection for the operator endpoint. */
    static final int HISTORY = 10;
    /** The prompt: short, and answerable in one token. */
    static final String PROMPT = "Reply with OK.";

    private static final System.Logger LOG = System.getLogger("dev.baton.health");
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final SecureRandom IDS = new SecureRandom();

    private volatile ProbeLease lease = ProbeLease.ALONE;
    /** Set once by {@link #start}; the health listener is needed before the context exists. */
    private volatile EngineContext ctx;
    private final Map<String, Scheduler.Scheduled> scheduled = new HashMap<>();
    private final Map<String, Deque<Probe>> history = new HashMap<>();

    /**
     * One probe as operators see it.
     *
     * @param id         the probe's record id
     * @param startedAt  when it was sent
     * @param model      the model it asked
     * @param outcome    {@code ok}, or the failure kind it ended with
     * @param httpStatus the provider's status, 0 when none came
     * @param latencyMillis how long it took
     * @param restored   whether the connection was back in rotation after it
     */
    public record Probe(String id, Instant startedAt, String model, String outcome, int httpStatus, long latencyMillis,
                 boolean restored) {
    }

    Prober() {
    }

    void start(EngineContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void ejected(String connection, Duration coolOff, String cause) {
        schedule(connection);
    }

    /** The last probes of {@code connection}, newest first. */
    List<Probe> history(String connection) {
        synchronized (history) {
            Deque<Probe> probes = history.get(connection);
            return probes == null ? List.of() : List.copyOf(probes);
        }
    }

    /** Who may send a due probe: this node, or one node of a cluster (set before any ejection can happen). */
    void lease(ProbeLease lease) {
        this.lease = lease;
    }

    /** Schedules the connection's next probe, when it is ejected in background mode and no probe is in flight. */
    void schedule(String connection) {
        EngineContext c = ctx;
        if (c == null) {
            return;
        }
        Instant at = c.health().of(connection).nextProbeAt();
        if (at == null) {
            return;
        }
        // A millisecond past the due time: the wait runs on the ticker, the health on the wall clock.
        scheduleIn(connection, Duration.between(c.clock().instant(), at).plusMillis(1));
    }

    private void scheduleIn(String connection, Duration delay) {
        EngineContext c = ctx;
        synchronized (scheduled) {
            Scheduler.Scheduled next;
            try {
                next = c.scheduler().schedule(delay, () -> due(connection));
            } catch (RejectedExecutionException shutDown) {
                return; // the application is stopping
            }
            Scheduler.Scheduled replaced = scheduled.put(connection, next);
            if (replaced != null) {
                replaced.cancel();
            }
        }
    }

    /**
     * The scheduled time came: when the lease gives this node the probe of this round (always, on a
     * node alone), probe; when another node of the cluster has it, look again once its lease could have
     * run out, unless its outcome arrives first (which reschedules).
     */
    private void due(String connection) {
        Instant round = ctx.health().of(connection).nextProbeAt();
        if (round != null && ctx.clock().instant().isBefore(round)) {
            schedule(connection); // moved later since it was scheduled
            return;
        }
        CompletableFuture<Boolean> claimed = round == null ? CompletableFuture.completedFuture(true)
                : lease.claim(connection, round);
        if (claimed.isDone()) {
            probeIfWon(connection, claimed);
        } else {
            claimed.whenComplete((won, error) -> ctx.scheduler().schedule(Duration.ZERO,
                    () -> probeIfWon(connection, claimed)));
        }
    }

    private void probeIfWon(String connection, CompletableFuture<Boolean> claimed) {
        boolean won = claimed.handle((w, error) -> error != null || w).join(); // a failed lease: probe as if alone
        if (won) {
            probe(connection);
        } else {
            scheduleIn(connection, lease.ttl()); // its outcome normally arrives first and reschedules
        }
    }

    /** Probes, unless the connection is back, already probing, or its probe moved later. */
    private void probe(String connection) {
        ConnectionHealth health = ctx.health().of(connection);
        if (!health.startProbe()) {
            schedule(connection);
            return;
        }
        try {
            send(connection, health);
        } catch (RuntimeException e) {
            // A bug of ours must not leave the connection probing for ever: give the probe back and try again later.
            LOG.log(Level.ERROR, "the background probe of connection " + connection + " failed", e);
            health.probeNotSent(health.snapshot().probeInterval());
            schedule(connection);
        }
    }

    private void send(String connection, ConnectionHealth health) {
        ConnectionConfig config = ctx.config().connections().stream().filter(c -> c.name().equals(connection))
                .findFirst().orElseThrow();
        // The ids the provider knows, in configured order: its listed models first, then its vendors' it has ids for.
        // A chat model when the connection has one: a probe of an embedding model is an embeddings request.
        Collection<String> ids = config.modelIds().values();
        String model = ids.stream().filter(m -> !health.availability(m).deprioritised())
                .min(Comparator.comparing(Prober::embedding)).orElse(ids.iterator().next());
        ProviderTarget target = new ProviderTarget(config.name(), config.provider(), config.baseUrl(), config.apiKey(),
                model, config.headers(), config.alternateBaseUrls(), config.settings(model));
        CompletableFuture<Void> done = new CompletableFuture<>();
        ConnectionGuards.Refusal refused = ctx.guards().tryStart(connection, () -> exchange(target, health, done), done);
        if (refused != null) {
            // Our own limit, not the provider's doing: try again when it allows, the interval unchanged.
            Duration retryIn = refused.retryAfter() != null ? refused.retryAfter() : health.snapshot().probeInterval();
            health.probeNotSent(retryIn);
            LOG.log(Level.DEBUG, "probe of connection {0} not sent: {1}; next in {2}", connection, refused.reason(),
                    Durations.format(retryIn));
            observe(() -> {
                ctx.observer().probeNotSent(connection, refused.reason());
                return null;
            });
            schedule(connection);
        }
    }

    /** Runs the probe's one exchange within {@link #PROBE_TIMEOUT}; its end goes to {@link #ended}. */
    private void exchange(ProviderTarget target, ConnectionHealth health, CompletableFuture<Void> done) {
        String id = newId();
        Instant startedAt = ctx.clock().instant();
        long startNanos = ctx.ticker().nanos();
        observe(() -> {
            ctx.observer().probeStarted(target.connection());
            return null;
        });
        AtomicBoolean settled = new AtomicBoolean();
        CompletableFuture<JsonObject> call = new CompletableFuture<>();
        Scheduler.Scheduled timer = ctx.scheduler().schedule(PROBE_TIMEOUT, () -> {
            if (settled.compareAndSet(false, true)) {
                call.cancel(true);
                ended(id, target, health, done, startedAt, startNanos, null, ProviderFailure.transport(
                        FailureKind.TIMEOUT, "no answer within " + Durations.format(PROBE_TIMEOUT)));
            }
        });
        call.whenComplete((json, error) -> {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            timer.cancel();
            if (error == null) {
                ended(id, target, health, done, startedAt, startNanos, json, null);
            } else {
                ended(id, target, health, done, startedAt, startNanos, null, AttemptFailures.failure(error).failure());
            }
        });
        CompletableFuture<JsonObject> exchange;
        try {
            ProviderAdapter adapter = ctx.adapters().get(target.provider());
            exchange = embedding(target.model()) ? adapter.embed(target, embeddingBody(target.model()), PROBE_TIMEOUT)
                    : adapter.complete(target, body(target.model()), PROBE_TIMEOUT);
        } catch (RuntimeException e) {
            // An adapter's bug: the probe fails as an attempt would, without the adapter's message (it could quote a header).
            call.completeExceptionally(new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION,
                    "the adapter failed: " + e.getClass().getSimpleName())));
            return;
        }
        exchange.whenComplete((json, error) -> {
            if (error == null) {
                call.complete(json);
            } else {
                call.completeExceptionally(error);
            }
        });
        call.whenComplete((json, error) -> {
            if (call.isCancelled()) {
                exchange.cancel(true); // timed out: abort the exchange
            }
        });
    }

    /** The probe ended: health first, the next probe, the history, then the record, the observer and the log. */
    private void ended(String id, ProviderTarget target, ConnectionHealth health, CompletableFuture<Void> done,
                       Instant startedAt, long startNanos, JsonObject answer, ProviderFailure failure) {
        done.complete(null);
        String connection = target.connection();
        if (failure == null) {
            health.succeeded();
        } else {
            health.failed(failure.kind(), failure.retryAfter(), target.model());
        }
        boolean restored = "healthy".equals(health.snapshot().state());
        schedule(connection); // before the record: whoever sees the record sees the next probe scheduled
        long latencyMillis = TimeUnit.NANOSECONDS.toMillis(ctx.ticker().nanos() - startNanos);
        RequestRecord record = record(id, target, startedAt, latencyMillis, answer, failure);
        Probe probe = new Probe(id, startedAt, target.model(), failure == null ? "ok" : failure.kind().wireName(),
                record.attempts().get(0).httpStatus(), latencyMillis, restored);
        int failedBefore = remember(connection, probe);
        try {
            ctx.store().save(record);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, id + ": the record store failed; the probe's record is lost", e);
        }
        observe(() -> {
            ctx.observer().probed(record);
            return null;
        });
        if (restored) {
            LOG.log(Level.INFO, "connection {0} passed a background probe of {1} ({2}, {3} ms) after {4} failed "
                    + "probes; back in rotation", connection, target.model(), probe.outcome(), latencyMillis, failedBefore);
        } else {
            LOG.log(Level.DEBUG, "connection {0} failed a background probe of {1}: {2}; next in {3}", connection,
                    target.model(), probe.outcome(), Durations.format(health.snapshot().probeInterval()));
        }
    }

    private RequestRecord record(String id, ProviderTarget target, Instant startedAt, long latencyMillis,
                                 JsonObject answer, ProviderFailure failure) {
        FailureKind kind = failure == null ? null : failure.kind();
        AttemptRecord attempt = new AttemptRecord(target.name(), target.connection(), target.provider(),
                target.model(), RequestRecord.PROBE, 0, startedAt, latencyMillis, kind,
                failure == null ? 200 : failure.httpStatus(), failure == null ? null : failure.type(),
                failure == null ? null : failure.code(),
                failure == null ? null : ctx.redactor().clean(failure.message()),
                failure == null ? null : failure.retryAfter(), false, false);
        ServedBy servedBy = failure == null
                ? new ServedBy(target.model(), target.provider(), target.connection(), RequestRecord.PROBE, null) : null;
        return new RequestRecord(id, startedAt, failure == null, attempt.httpStatus(),
                kind == null ? null : kind.wireName(), target.model(), null, servedBy, List.of(attempt), List.of(),
                false, false, null, latencyMillis, answer == null ? null : OpenAiShape.usage(answer), false,
                null, null, RequestRecord.PROBE);
    }

    /** Keeps {@code probe}; returns how many probes in a row had failed before it. */
    private int remember(String connection, Probe probe) {
        synchronized (history) {
            Deque<Probe> probes = history.computeIfAbsent(connection, c -> new ArrayDeque<>());
            int failedBefore = 0;
            for (Probe p : probes) {
                if (p.restored()) {
                    break;
                }
                failedBefore++;
            }
            probes.addFirst(probe);
            while (probes.size() > HISTORY) {
                probes.removeLast();
            }
            return failedBefore;
        }
    }

    /** The minimal request: one short user message, at most one output token, no stream. */
    static JsonObject body(String model) {
        return JSON.createObjectBuilder()
                .add("model", model)
                .add("messages", JSON.createArrayBuilder().add(JSON.createObjectBuilder()
                        .add("role", "user").add("content", PROMPT)))
                .add("max_completion_tokens", 1)
                .build();
    }

    /** The smallest embeddings request: one word. */
    static JsonObject embeddingBody(String model) {
        return JSON.createObjectBuilder().add("model", model).add("input", PROMPT).build();
    }

    /**
     * Whether {@code model} is, by its name, an embedding model ({@code text-embedding-3-small},
     * {@code gemini-embedding-001}, {@code amazon.titan-embed-text-v2:0}): a chat request would be refused by it.
     */
    static boolean embedding(String model) {
        return model.toLowerCase(Locale.ROOT).contains("embed");
    }

    private static String newId() {
        byte[] bytes = new byte[12];
        IDS.nextBytes(bytes);
        return "probe_" + HexFormat.of().formatHex(bytes);
    }

    /** Runs an observer callback; an observer's bug never stops probing. */
    private static void observe(Supplier<Void> callback) {
        try {
            callback.get();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "an engine observer failed on a probe", e);
        }
    }
}
