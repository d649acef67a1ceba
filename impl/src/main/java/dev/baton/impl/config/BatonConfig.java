package dev.baton.impl.config;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything Baton reads from MicroProfile Config, read once at startup. Immutable.
 *
 * @param connections        every connection, in configured order
 * @param routes             every route by name
 * @param defaults           the policy for requests that name a model instead of a route
 * @param retryBudget        the process-wide retry budget
 * @param recordCapacity     how many records the in-memory store keeps
 * @param maxResponseBytes   the largest upstream response body accepted
 * @param maxStreamDuration  the longest a stream may run after its commit point
 * @param models             what the configuration says about models' abilities, by model name
 * @param balance            the adaptive balancer's settings ({@code baton.balance.*})
 * @param budgets            the routes' and connections' budgets, and how output is bounded for them
 */
public record BatonConfig(List<ConnectionConfig> connections, Map<String, RouteConfig> routes, RoutePolicy defaults,
                          RetryBudgetConfig retryBudget, int recordCapacity, long maxResponseBytes,
                          Duration maxStreamDuration, Map<String, ModelProfile> models, RecordsConfig records,
                          BalanceSettings balance, BudgetSettings budgets) {

    /** At most this many entries in a request's {@code fallbacks}. */
    public static final int MAX_FALLBACKS = 5;

    public BatonConfig {
        connections = List.copyOf(connections);
        routes = Map.copyOf(routes);
        models = Map.copyOf(models);
    }

    /**
     * The configured profile of {@code model}, or an unrestricted one. A {@code vendor/model} id without a profile of its
     * own has that of the model's bare name, if one is configured.
     */
    public ModelProfile model(String model) {
        ModelProfile profile = models.get(model);
        if (profile == null && model.indexOf('/') > 0) {
            profile = models.get(model.substring(model.indexOf('/') + 1));
        }
        return profile != null ? profile : ModelProfile.unknown(model);
    }

    /**
     * The price that applies to {@code model}: the configured one ({@code baton.models.<model>.price.*}), else the
     * built-in list's, else none (an unpriced model).
     */
    public Optional<ModelPrice> price(String model) {
        ModelProfile profile = model(model);
        if (profile.price() != null) {
            return Optional.of(profile.price());
        }
        return PriceList.builtIn().price(model);
    }

    public Optional<ConnectionConfig> connection(String name) {
        return connections.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The connections that serve {@code model}: by {@code priority}, then in configured order. */
    public List<ConnectionConfig> servingModel(String model) {
        return connections.stream().filter(c -> c.serves(model))
                .sorted(Comparator.comparingInt(ConnectionConfig::priority)).toList();
    }

    /** Whether any connection serves {@code model}. */
    public boolean serves(String model) {
        return connections.stream().anyMatch(c -> c.serves(model));
    }

    /** Whether any connection serves {@code vendor}'s models as {@code vendor/model}. */
    public boolean servesVendor(String vendor) {
        return connections.stream().anyMatch(c -> c.vendors().contains(vendor)
                || c.modelIds().keySet().stream().anyMatch(m -> m.startsWith(vendor + "/")));
    }

    /**
     * What routes and connections may spend ({@code baton.routes.<name>.budget}, {@code baton.connections.<name>.budget}),
     * the output a budget holds for a request that sets no token limit when its model has no
     * {@code max-output-tokens} ({@code baton.budgets.default-output-tokens}), and how many bytes of a request count
     * as one input token at most ({@code baton.budgets.input-bytes-per-token}: 1, a bound for any byte-level
     * tokenizer, unless the operator knows its traffic).
     */
    public record BudgetSettings(Map<String, Budget> routes, Map<String, Budget> connections, int defaultOutputTokens,
                                 int inputBytesPerToken) {

        /** Without {@code max_tokens}, a budget holds this much output unless the model says otherwise. */
        public static final int DEFAULT_OUTPUT_TOKENS = 16_384;
        public static final BudgetSettings NONE = new BudgetSettings(Map.of(), Map.of(), DEFAULT_OUTPUT_TOKENS, 1);

        public BudgetSettings {
            routes = Map.copyOf(routes);
            connections = Map.copyOf(connections);
        }
    }

    /**
     * The retry budget: retries within the last {@code window} may not exceed
     * {@code percent}% of requests in it plus {@code minPerSecond}·window.
     */
    public record RetryBudgetConfig(int percent, int minPerSecond, Duration window) {
        public static final RetryBudgetConfig DEFAULT = new RetryBudgetConfig(10, 5, Duration.ofSeconds(10));
    }

    /**
     * How adaptive shares are computed ({@code baton.balance.*}).
     *
     * @param interval how often a tier's shares are recomputed
     * @param window   how far back error rates and latencies are read
     * @param minShare the least share (0–1) every usable target of an adaptive tier keeps, so it stays measured
     */
    public record BalanceSettings(Duration interval, Duration window, double minShare) {
        public static final BalanceSettings DEFAULT = new BalanceSettings(Duration.ofSeconds(2), Duration.ofSeconds(10),
                0.05);
    }

    /**
     * Where request records go ({@code baton.records.*}).
     *
     * @param store          {@code memory} (the default) or {@code jdbc}
     * @param dataSource     the JNDI name of the DataSource for {@code jdbc}
     * @param queueCapacity  records waiting to be written before new ones are dropped (counted)
     * @param retention      how long records are kept in the database
     * @param tablePrefix    the prefix of the tables' names
     */
    public record RecordsConfig(String store, String dataSource, int queueCapacity, Duration retention,
                                String tablePrefix) {

        public boolean jdbc() {
            return "jdbc".equals(store);
        }
    }
}
