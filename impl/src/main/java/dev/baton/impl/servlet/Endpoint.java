package dev.baton.impl.servlet;

import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.impl.stats.MinuteSeries;
import dev.baton.impl.budget.Account;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.config.Budget;
import dev.baton.impl.config.ModelPrice;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import jakarta.json.JsonValue;
import dev.baton.impl.record.RecordStore;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;

/**
 * What the endpoint's servlets are given, built once with the rest of Baton by the composition root
 * ({@code dev.baton.impl.boot.BatonRuntime}): the settings, the engine, and the {@link Gateway} chain with its state
 * (budgets, idempotency keys). The servlets receive it by injection and look nothing up. It names no Servlet API
 * type: the CDI bean that produces it also runs where there is none (Weld SE, the LangChain4j module). Thread-safe.
 */
public final class Endpoint {

    /** How long past the longest deadline and stream a request may run before the last-resort timeout ends it. */
    private static final Duration LAST_RESORT_MARGIN = Duration.ofSeconds(30);

    /**
     * What the endpoint is built on.
     *
     * @param cluster the cluster's shared view, or empty on a node alone ({@code baton.cluster.store=memory})
     * @param series  the console's per-minute aggregates, or {@code null} when the console is off
     * @param spending the budgets, for the console ({@link Spending#NONE} when none is configured)
     */
    public record Parts(FailoverEngine engine, RecordStore store, ConnectionStats stats,
                        Optional<ClusterSync> cluster, MinuteSeries series, Spending spending) {
    }

    private final EndpointSettings settings;
    private final Parts parts;
    private final Gateway gateway;
    private final Duration longestRequest;
    /** The application's responses not yet ended, counted by every servlet's output. */
    private final OpenResponses openResponses = new OpenResponses(Runtime.getRuntime().availableProcessors());

    private Endpoint(EndpointSettings settings, Parts parts, Gateway gateway, Duration longestRequest) {
        this.settings = settings;
        this.parts = parts;
        this.gateway = gateway;
        this.longestRequest = longestRequest;
    }

    /** Builds the endpoint's chain. (The keys' budgets are the engine's: see {@code Spending}.) */
    public static Endpoint create(EndpointSettings settings, Parts parts, InstantSource clock) {
        BatonConfig config = parts.engine().config();
        Duration longestRequest = lastResort(config);
        // A claim lasts as long as a non-streaming request can run (a stream never carries a key).
        Duration running = longestRequest.minus(config.maxStreamDuration());
        var lifetimes = new SharedIdempotency.Lifetimes(settings.idempotencyTtl(), running);
        SharedIdempotency shared = parts.cluster().map(c -> new SharedIdempotency(c.store(), c.node(), lifetimes,
                parts.engine().scheduler())).orElse(null);
        Idempotency idempotency = new Idempotency(new IdempotencyCache(settings.idempotencyTtl(),
                settings.idempotencyMaxEntries(), clock), shared);
        Gateway gateway = Gateway.of(RequestLimits.of(settings, config), new ModelAllowlist(settings.allowedModels(),
                config), idempotency, parts.engine());
        return new Endpoint(settings, parts, gateway, longestRequest);
    }

    /**
     * The longest a request can legitimately take: the longest deadline (until the commit point), then a stream's
     * longest run after it, plus a margin for the body and the last write.
     */
    static Duration lastResort(BatonConfig config) {
        Duration deadline = config.routes().values().stream().map(r -> r.policy().deadline())
                .reduce(config.defaults().deadline(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        return deadline.plus(config.maxStreamDuration()).plus(LAST_RESORT_MARGIN);
    }

    EndpointSettings settings() {
        return settings;
    }

    BatonConfig config() {
        return parts.engine().config();
    }

    FailoverEngine engine() {
        return parts.engine();
    }

    ConnectionStats stats() {
        return parts.stats();
    }

    /** The console's aggregates; only the console, which exists only when they do, asks. */
    MinuteSeries series() {
        return parts.series();
    }

    /**
     * Every budget with what this node knows it spent in its current period, for the console: with the cluster store,
     * what the store said at this node's last hold on it ({@code Spending#used}).
     */
    JsonArray budgets() {
        Instant now = Instant.now();
        String currency = config().connections().stream().flatMap(c -> c.modelIds().keySet().stream())
                .map(m -> config().price(m)).flatMap(Optional::stream).map(ModelPrice::currency).findFirst().orElse(null);
        JsonArrayBuilder out = Json.array();
        for (Account account : parts.spending().accounts()) {
            Budget budget = account.budget();
            double used = parts.spending().used(account);
            out.add(Json.object()
                    .add("scope", account.scope().word())
                    .add("name", account.name())
                    .add("limit", budget.amount())
                    .add("period", budget.periodText())
                    .add("spent", budget.amount().multiply(BigDecimal.valueOf(used)).setScale(6, RoundingMode.HALF_UP)
                            .stripTrailingZeros())
                    .add("used", BigDecimal.valueOf(used).setScale(4, RoundingMode.HALF_UP))
                    .add("resets_at", budget.resetAfter(now).toString())
                    .add("currency", currency == null ? JsonValue.NULL : Json.JSON.createValue(currency)));
        }
        return out.build();
    }

    /** The cluster's shared view, or {@code null} on a node alone. */
    ClusterSync cluster() {
        return parts.cluster().orElse(null);
    }

    Gateway gateway() {
        return gateway;
    }

    /** Ends a request nothing else ended; the engine's deadlines end every other one well before it. */
    Duration longestRequest() {
        return longestRequest;
    }

    OpenResponses openResponses() {
        return openResponses;
    }
}
