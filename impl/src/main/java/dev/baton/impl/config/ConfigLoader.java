package dev.baton.impl.config;

import dev.baton.FailureAction;
import dev.baton.FailureKind;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapterFactory;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads every {@code baton.*} key once into a {@link BatonConfig}. Every problem found is
 * collected and reported together in one {@link FailoverDefinitionException}, each naming the key,
 * the bad value (never for {@code api-key}) and the config source it came from.
 *
 * <p>The key reference is {@code docs/configuration.md}. One instance per load; not thread-safe.
 */
public final class ConfigLoader {

    static final String CONNECTIONS = "baton.connections";
    static final String ROUTES = "baton.routes";
    static final String DEFAULTS = "baton.defaults";
    static final String MODELS = "baton.models";
    /** The keys under {@code baton.endpoint.}, read by {@code dev.baton.impl.servlet.EndpointSettings}. */
    public static final Set<String> ENDPOINT_KEYS = Set.of("enabled", "path", "api-key-sha256", "max-body-bytes",
            "console.enabled",
            "allowed-models", "admin-key-sha256", "idempotency-ttl", "idempotency-max-entries", "limits.max-n",
            "limits.max-output-tokens");
    private static final System.Logger LOG = System.getLogger(ConfigLoader.class.getName());

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    /** The keys every connection has; a provider adds its own ({@link ProviderAdapterFactory#connectionKeys()}). */
    private static final Set<String> CONNECTION_KEYS = Set.of("provider", "base-url", "alternate-base-urls", "api-key",
            "models", "eject-after", "eject-after-credential", "cool-off", "max-cool-off", "probe", "probe-interval",
            "max-probe-interval", "max-concurrent", "rate-limit", "budget", "vendors", "priority");
    private static final String HEADERS = "headers.";
    /** {@code model-ids.<model>}: the provider's id for a model a request names, over the provider's own table. */
    private static final String MODEL_IDS = "model-ids.";
    private static final Pattern VENDOR = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    private static final Set<String> POLICY_KEYS = Set.of("deadline", "attempt-timeout", "first-token-timeout",
            "stream-idle-timeout", "same-target-retries", "retry-backoff", "retry-backoff-max", "max-wait", "degraded",
            "balance");
    private static final List<String> ROUTE_ATTRIBUTES = concat(policyKeys(), List.of("targets", "budget"));
    private static final Set<String> GLOBAL_KEYS = Set.of("baton.retry-budget.percent",
            "baton.retry-budget.min-per-second", "baton.retry-budget.window", "baton.records.capacity",
            "baton.records.store", "baton.records.datasource", "baton.records.queue-capacity", "baton.records.retention",
            "baton.records.table-prefix",
            "baton.limits.max-response-bytes", "baton.limits.max-stream-duration", "baton.balance.interval",
            "baton.balance.window", "baton.balance.min-share", "baton.http.client",
            "baton.budgets.default-output-tokens", "baton.budgets.input-bytes-per-token");

    private final Config config;
    private final Map<String, ProviderAdapterFactory> providers = new TreeMap<>();
    /** What follows a connection's name in its keys; a trailing dot stands for a name of the key's own. */
    private final List<String> connectionAttributes;
    private final List<String> problems = new ArrayList<>();
    /** Every {@code baton.*} key written as a dotted name in some source; see {@link #propertyKeys}. */
    private Set<String> keys = Set.of();
    /** Every api-key read, so that a key pasted into another key's value is still never printed. */
    private final List<String> secrets = new ArrayList<>();

    private ConfigLoader(Config config, Collection<ProviderAdapterFactory> providers) {
        this.config = config;
        Set<String> attributes = new TreeSet<>(CONNECTION_KEYS);
        attributes.add(HEADERS);
        attributes.add(MODEL_IDS);
        for (ProviderAdapterFactory provider : providers) {
            this.providers.put(provider.id(), provider);
            for (ConnectionKey key : provider.connectionKeys()) {
                if (CONNECTION_KEYS.contains(key.name()) || HEADERS.equals(key.name() + ".")
                        || MODEL_IDS.equals(key.name() + ".")) {
                    problems.add("provider '" + provider.id() + "' (" + provider.getClass().getName()
                            + ") declares the connection key '" + key.name() + "', which every connection has");
                }
                attributes.add(key.perModel() ? key.name() + "." : key.name());
            }
        }
        this.connectionAttributes = List.copyOf(attributes);
    }

    /**
     * @param providers the adapters available: their ids are the valid {@code provider} values, and their declared
     *                  keys the connection keys read beside the common ones
     * @throws FailoverDefinitionException listing every problem found
     */
    public static BatonConfig load(Config config, Collection<ProviderAdapterFactory> providers) {
        return new ConfigLoader(config, providers).load();
    }

    private BatonConfig load() {
        keys = propertyKeys(config);
        checkKnownKeys(keys);
        List<String> connectionNames = names(CONNECTIONS, keys);
        List<ConnectionConfig> connections = new ArrayList<>();
        for (String name : connectionNames) {
            connection(name).ifPresent(connections::add);
        }
        Map<String, ModelProfile> models = ModelProfiles.load(config, keys, problems);
        connections = servingVendors(connections, models.keySet());
        RoutePolicy defaults = policy(DEFAULTS, RoutePolicy.DEFAULT);
        List<String> routeNames = names(ROUTES, keys);
        Map<String, RouteConfig> routes = new LinkedHashMap<>();
        for (String name : routeNames) {
            route(name, connections, defaults).ifPresent(r -> routes.put(name, r));
        }
        checkEnvironment(connectionNames, routeNames);
        var budget = new BatonConfig.RetryBudgetConfig(
                integer("baton.retry-budget.percent", 10, 0, 100),
                integer("baton.retry-budget.min-per-second", 5, 0, 10_000),
                duration("baton.retry-budget.window", Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(60)));
        int capacity = integer("baton.records.capacity", 1000, 1, 1_000_000);
        long maxResponse = integer("baton.limits.max-response-bytes", 8 * 1024 * 1024, 1024, Integer.MAX_VALUE);
        Duration maxStream = duration("baton.limits.max-stream-duration", Duration.ofMinutes(10),
                Duration.ofSeconds(1), Duration.ofHours(24));
        var records = new BatonConfig.RecordsConfig(
                read("baton.records.store", raw -> {
                    if (!raw.equals("memory") && !raw.equals("jdbc")) {
                        throw new IllegalArgumentException("'" + raw + "' is not one of [memory, jdbc]");
                    }
                    return raw;
                }).orElse("memory"),
                string("baton.records.datasource").orElse("java:comp/DefaultDataSource"),
                integer("baton.records.queue-capacity", 10_000, 1, 1_000_000),
                duration("baton.records.retention", Duration.ofDays(30), Duration.ofHours(1), Duration.ofDays(3650)),
                read("baton.records.table-prefix", raw -> {
                    if (!raw.matches("[A-Za-z][A-Za-z0-9_]{0,39}")) {
                        throw new IllegalArgumentException("'" + raw + "' must be a letter followed by at most 39 letters,"
                                + " digits or underscores");
                    }
                    return raw;
                }).orElse("baton_"));
        BatonConfig.BalanceSettings balance = balanceSettings();
        checkRetiredHttpClient();
        var budgets = new BatonConfig.BudgetSettings(budgets(ROUTES, routeNames), budgets(CONNECTIONS, connectionNames),
                integer("baton.budgets.default-output-tokens", BatonConfig.BudgetSettings.DEFAULT_OUTPUT_TOKENS, 1,
                        10_000_000), integer("baton.budgets.input-bytes-per-token", 1, 1, 8));
        if (!problems.isEmpty()) {
            String report = "Baton configuration is invalid:\n  - " + String.join("\n  - ", problems);
            for (String secret : secrets) {
                report = report.replace(secret, "<redacted>");
            }
            throw new FailoverDefinitionException(report);
        }
        return new BatonConfig(connections, routes, defaults, budget, capacity, maxResponse, maxStream, models, records,
                balance, budgets);
    }

    /** {@code <prefix>.<name>.budget} of each name that has one. */
    private Map<String, Budget> budgets(String prefix, List<String> names) {
        Map<String, Budget> budgets = new TreeMap<>();
        for (String name : names) {
            read(prefix + "." + name + ".budget", Budget::parse).ifPresent(b -> budgets.put(name, b));
        }
        return budgets;
    }

    /**
     * {@code baton.http.client} chose between two HTTP clients and now has nothing to choose: Netty is the only one.
     * A configuration that still asks for the other must not deploy as if it had been heard; {@code netty} is what
     * runs anyway and passes.
     */
    private void checkRetiredHttpClient() {
        read("baton.http.client", raw -> {
            if (!raw.equalsIgnoreCase("netty")) {
                throw new IllegalArgumentException("Baton now speaks HTTP with Netty only; remove the key (it was '"
                        + raw + "')");
            }
            return raw;
        });
    }

    /** {@code baton.balance.*}: how adaptive tiers recompute their shares. */
    private BatonConfig.BalanceSettings balanceSettings() {
        var defaults = BatonConfig.BalanceSettings.DEFAULT;
        Duration interval = duration("baton.balance.interval", defaults.interval(), Duration.ofMillis(100),
                Duration.ofMinutes(1));
        Duration window = duration("baton.balance.window", defaults.window(), Duration.ofSeconds(1),
                Duration.ofMinutes(10));
        if (window.compareTo(interval) < 0) {
            problems.add("baton.balance.window: must be at least baton.balance.interval (" + Durations.format(interval)
                    + ") but was " + Durations.format(window) + source("baton.balance.window"));
        }
        int minShare = integer("baton.balance.min-share", (int) Math.round(defaults.minShare() * 100), 1, 50);
        return new BatonConfig.BalanceSettings(interval, window, minShare / 100.0);
    }

    /**
     * The {@code baton.*} property names, without the dotted names some implementations derive from
     * environment variables. SmallRye Config lists, beside {@code BATON_ROUTES_CHAT_ON_SPEND_LIMIT}, a guessed
     * {@code baton.routes.chat.on.spend.limit} (recent versions from the environment source, older ones from no
     * source at all): the guess cannot be right (the mapping loses dashes and dots) and would be refused as an
     * unknown key, discovered as a connection named after half a name, or sent as a header. A name is a guess
     * when no source writes it (lists it without its environment-variable form), some source lists that form, and
     * it has no dash or capital, which the mapping never produces. Other names no source lists (a profile's, say)
     * are kept.
     */
    public static Set<String> propertyKeys(Config config) {
        List<Set<String>> sources = new ArrayList<>();
        for (ConfigSource source : config.getConfigSources()) {
            sources.add(source.getPropertyNames());
        }
        Set<String> result = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            if (!name.startsWith("baton.")) {
                continue;
            }
            String env = environmentForm(name);
            boolean written = sources.stream().anyMatch(names -> names.contains(name) && !names.contains(env));
            boolean guessed = !written && sources.stream().anyMatch(names -> names.contains(env))
                    && name.equals(name.toLowerCase(Locale.ROOT)) && !name.contains("-");
            if (!guessed) {
                result.add(name);
            }
        }
        return result;
    }

    /** MicroProfile Config's environment-variable form of a key: {@code baton.a-b.c} is {@code BATON_A_B_C}. */
    static String environmentForm(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /**
     * Environment variable names are not property names, and a {@code BATON_*} variable may be a script's or a
     * container's ({@code BATON_HOME}, {@code BATON_XMX}): such a variable is logged once and ignored, never
     * refused. One that sets a key Baton reads was read with that key, so a bad value is refused naming the key.
     * One shaped like a key of a connection, route or model whose name is not configured
     * ({@code BATON_CONNECTIONS_OPENAI_PROD_MODELS} without {@code openai-prod}) is refused: it was most likely
     * meant, and names are never discovered from environment variables, so it would otherwise do nothing.
     */
    private void checkEnvironment(List<String> connectionNames, List<String> routeNames) {
        Set<String> read = new TreeSet<>();
        List<String> documented = new ArrayList<>(keys);
        documented.addAll(List.of(CONNECTIONS, ROUTES));
        documented.addAll(GLOBAL_KEYS);
        ENDPOINT_KEYS.forEach(k -> documented.add("baton.endpoint." + k));
        policyKeys().forEach(k -> documented.add(DEFAULTS + "." + k));
        for (String name : connectionNames) {
            connectionAttributes.stream().filter(k -> !k.endsWith("."))
                    .forEach(k -> documented.add(CONNECTIONS + "." + name + "." + k));
        }
        for (String name : routeNames) {
            documented.add(ROUTES + "." + name + ".targets");
            policyKeys().forEach(k -> documented.add(ROUTES + "." + name + "." + k));
        }
        documented.forEach(k -> read.add(environmentForm(k)));

        Map<String, Set<String>> unmatched = new TreeMap<>();
        Set<String> ignored = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            if (!name.startsWith("BATON_") || read.contains(name)) {
                continue;
            }
            String prefix = keyShape(name);
            List<String> loaded = CONNECTIONS.equals(prefix) ? connectionNames
                    : ROUTES.equals(prefix) ? routeNames : List.of();
            // A variable of a loaded connection or route that sets nothing (an env-only header, a typo) is ignored.
            if (prefix != null && loaded.stream().noneMatch(n -> name.startsWith(environmentForm(prefix + "." + n) + "_"))) {
                unmatched.computeIfAbsent(prefix, p -> new TreeSet<>()).add(name);
            } else {
                ignored.add(name);
            }
        }
        for (var entry : unmatched.entrySet()) {
            String names = String.join(", ", entry.getValue());
            String prefix = entry.getKey();
            problems.add(names + (prefix.equals(MODELS)
                    ? ": matches no " + ModelProfiles.PREFIX + "<model>.<attribute> key; model names are not discovered"
                            + " from environment variables, so write the key with dots (a properties file or a system"
                            + " property) and override it from the environment if needed"
                    : ": no configured " + prefix.substring("baton.".length(), prefix.length() - 1) + " matches; names"
                            + " are not discovered from environment variables, so list every name in " + prefix + " ("
                            + environmentForm(prefix) + ")"));
        }
        if (!ignored.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "Baton ignores these environment variables, which set no key it reads"
                    + " (see docs/configuration.md, Environment variables): " + String.join(", ", ignored));
        }
    }

    /**
     * The collection whose key an environment variable's name is shaped like, whatever the name in it:
     * {@code BATON_CONNECTIONS_X_COOL_OFF} and {@code BATON_CONNECTIONS_X_HEADERS_Y} are {@code baton.connections};
     * {@code BATON_CONNECTIONS_FILE} or {@code BATON_MODELS_DIR} is no key's (null).
     */
    private String keyShape(String env) {
        Map<String, List<String>> shapes = Map.of(CONNECTIONS, connectionAttributes, ROUTES, ROUTE_ATTRIBUTES,
                MODELS, ModelProfiles.ATTRIBUTES);
        for (var shape : shapes.entrySet()) {
            String prefix = environmentForm(shape.getKey());
            if (!env.startsWith(prefix + "_")) {
                continue;
            }
            String rest = env.substring(prefix.length()); // "_X_COOL_OFF": a name, then an attribute
            for (String attribute : shape.getValue()) {
                String form = "_" + environmentForm(attribute);
                boolean named = attribute.endsWith(".")
                        ? rest.indexOf(form, 1) > 1 && !rest.endsWith(form)
                        : rest.endsWith(form) && rest.length() > form.length() + 1;
                if (named) {
                    return shape.getKey();
                }
            }
        }
        return null;
    }

    /** What follows a route's name in its keys, or the defaults' prefix. */
    private static List<String> policyKeys() {
        List<String> result = new ArrayList<>(POLICY_KEYS);
        Arrays.stream(FailureKind.values()).forEach(k -> result.add("on." + k.wireName()));
        return result;
    }

    /** A misspelt key is a silent default waiting to happen: refuse every key Baton does not read. */
    private void checkKnownKeys(Set<String> keys) {
        for (String key : keys) {
            if (key.equals(CONNECTIONS) || key.equals(ROUTES) || GLOBAL_KEYS.contains(key)
                    || key.startsWith("baton.endpoint.") || key.startsWith("baton.cluster.")
                    || key.startsWith(ModelProfiles.PREFIX)
                    // read and checked by the optional baton-langchain4j module
                    || key.startsWith("baton.langchain4j.")) {
                // the endpoint's and the cluster's keys are checked where they are read (EndpointSettings, ClusterSettings)
                continue;
            }
            String[] parts = key.split("\\.", 4);
            boolean known = switch (parts[1]) {
                case "connections" -> parts.length == 4 && connectionAttributes.stream().anyMatch(a -> a.endsWith(".")
                        ? parts[3].startsWith(a) && parts[3].length() > a.length() : parts[3].equals(a));
                case "routes" -> parts.length == 4 && (parts[3].equals("targets") || parts[3].equals("budget")
                        || policyKey(parts[3]));
                case "defaults" -> parts.length >= 3 && policyKey(key.substring(DEFAULTS.length() + 1));
                default -> false;
            };
            if (!known) {
                problems.add(key + ": unknown key (see docs/configuration.md for the keys Baton reads)" + source(key));
            }
        }
    }

    private static boolean policyKey(String key) {
        return POLICY_KEYS.contains(key) || key.startsWith("on.");
    }

    /** Names from the explicit list {@code prefix} when given, else discovered from keys, sorted. */
    private List<String> names(String prefix, Set<String> keys) {
        Optional<String> explicit = config.getOptionalValue(prefix, String.class);
        Set<String> found = new TreeSet<>();
        if (explicit.isPresent()) {
            found.addAll(list(explicit.get()));
        } else {
            for (String key : keys) {
                if (key.startsWith(prefix + ".")) {
                    found.add(key.substring(prefix.length() + 1).split("\\.", 2)[0]);
                }
            }
        }
        List<String> names = new ArrayList<>();
        List<String> order = explicit.map(ConfigLoader::list).orElse(List.copyOf(found));
        for (String name : order) {
            if (!NAME.matcher(name).matches()) {
                problems.add(prefix + ": the name '" + name + "' may only contain letters, digits, '-' and '_'");
            } else if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private Optional<ConnectionConfig> connection(String name) {
        String p = CONNECTIONS + "." + name + ".";
        int before = problems.size();
        String provider = required(p + "provider");
        ProviderAdapterFactory factory = provider == null ? null : providers.get(provider);
        if (provider != null && factory == null) {
            problems.add(p + "provider: '" + provider + "' is not a known provider; expected one of "
                    + providers.keySet() + source(p + "provider"));
        }
        List<String> models = string(p + "models").map(ConfigLoader::list).orElse(List.of());
        Map<String, String> settings = new TreeMap<>();
        Map<String, Map<String, String>> modelSettings = new TreeMap<>();
        providerKeys(p, provider, factory, models, settings, modelSettings);
        String defaultBase = factory == null ? null : factory.defaultBaseUrl(settings).map(URI::toString).orElse(null);
        String base = string(p + "base-url").orElse(defaultBase);
        URI baseUrl = null;
        if (base == null) {
            // Without a known provider there is no default to miss; the provider problem is already reported.
            if (factory != null) {
                problems.add(p + "base-url: required for provider '" + provider + "'");
            }
        } else {
            baseUrl = baseUrl(p + "base-url", base);
        }
        Set<String> vendors = vendors(p, factory, baseUrl);
        Map<String, String> modelIds = new LinkedHashMap<>();
        models.forEach(m -> modelIds.put(m, m));
        modelIds.putAll(modelIdOverrides(p));
        if (modelIds.isEmpty() && vendors.isEmpty()) {
            problems.add(p + "models: required, a comma-separated list of the models this connection serves (or "
                    + p + "vendors, for a provider that serves none by default)");
        }
        List<URI> alternates = new ArrayList<>();
        for (String alternate : string(p + "alternate-base-urls").map(ConfigLoader::list).orElse(List.of())) {
            URI uri = baseUrl(p + "alternate-base-urls", alternate);
            if (uri != null && (uri.equals(baseUrl) || alternates.contains(uri))) {
                problems.add(p + "alternate-base-urls: '" + alternate + "' is listed twice (base-url included)"
                        + source(p + "alternate-base-urls"));
            } else if (uri != null) {
                alternates.add(uri);
            }
        }
        String apiKey = secret(p + "api-key");
        boolean remote = baseUrl != null && !isLoopback(baseUrl) || alternates.stream().anyMatch(u -> !isLoopback(u));
        if (apiKey == null && remote && !unresolved(p + "api-key") && (factory == null || factory.requiresApiKey())) {
            problems.add(p + "api-key: required (only a loopback base-url may go without a key)");
        }
        Map<String, String> headers = new TreeMap<>();
        for (String key : keys) {
            if (key.startsWith(p + "headers.")) {
                String header = key.substring((p + "headers.").length());
                String value = string(key).orElse("");
                if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
                    problems.add(key + ": a header value may not contain CR, LF or NUL" + source(key));
                } else {
                    headers.put(header, value);
                }
            }
        }
        HealthPolicy d = HealthPolicy.DEFAULT;
        HealthPolicy health = new HealthPolicy(
                integer(p + "eject-after", d.ejectAfter(), 1, 1000),
                integer(p + "eject-after-credential", d.ejectAfterCredential(), 1, 1000),
                duration(p + "cool-off", d.coolOff(), Duration.ofMillis(1), Duration.ofHours(24)),
                duration(p + "max-cool-off", d.maxCoolOff(), Duration.ofMillis(1), Duration.ofHours(24)),
                read(p + "probe", ConfigLoader::probe).orElse(d.probe()),
                duration(p + "probe-interval", d.probeInterval(), Duration.ofMillis(100), Duration.ofHours(1)),
                duration(p + "max-probe-interval", d.maxProbeInterval(), Duration.ofMillis(100), Duration.ofHours(24)));
        if (health.maxCoolOff().compareTo(health.coolOff()) < 0) {
            problems.add(p + "max-cool-off: must be >= cool-off (" + Durations.format(health.coolOff())
                    + ") but was " + Durations.format(health.maxCoolOff()) + source(p + "max-cool-off"));
        }
        if (health.maxProbeInterval().compareTo(health.probeInterval()) < 0) {
            problems.add(p + "max-probe-interval: must be >= probe-interval (" + Durations.format(health.probeInterval())
                    + ") but was " + Durations.format(health.maxProbeInterval()) + source(p + "max-probe-interval"));
        }
        Optional<Rate> rate = read(p + "rate-limit", ConfigLoader::rate);
        ConnectionLimits limits = new ConnectionLimits(integer(p + "max-concurrent", 0, 1, 100_000),
                rate.map(Rate::permits).orElse(0), rate.map(Rate::window).orElse(null));
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ConnectionConfig(name, provider, baseUrl, apiKey == null ? "" : apiKey, models,
                headers, health, alternates, settings, modelSettings, limits, vendors,
                integer(p + "priority", 0, -1000, 1000), modelIds, secretSettings(factory)));
    }

    /** The settings of {@code factory}'s keys that hold credentials. */
    private static Set<String> secretSettings(ProviderAdapterFactory factory) {
        Set<String> names = new TreeSet<>();
        if (factory != null) {
            factory.connectionKeys().stream().filter(ConnectionKey::secret).forEach(k -> names.add(k.setting()));
        }
        return names;
    }

    /** {@code vendors}: the vendors whose {@code vendor/model} ids the connection serves; its provider's by default. */
    private Set<String> vendors(String p, ProviderAdapterFactory factory, URI baseUrl) {
        Optional<List<String>> configured = string(p + "vendors").map(ConfigLoader::list);
        if (configured.isEmpty()) {
            return factory == null || baseUrl == null ? Set.of() : factory.vendors(baseUrl);
        }
        if (configured.get().equals(List.of("none"))) {
            return Set.of();
        }
        Set<String> vendors = new TreeSet<>();
        for (String vendor : configured.get()) {
            if (VENDOR.matcher(vendor).matches()) {
                vendors.add(vendor);
            } else {
                problems.add(p + "vendors: '" + vendor + "' is not a vendor name (lower-case letters, digits, '.', '_'"
                        + " or '-'), nor is the list 'none'" + source(p + "vendors"));
            }
        }
        return vendors;
    }

    /** {@code model-ids.<model>}: what the connection sends for a model a request names, in key order. */
    private Map<String, String> modelIdOverrides(String p) {
        Map<String, String> ids = new TreeMap<>();
        for (String key : keys) {
            if (key.startsWith(p + MODEL_IDS)) {
                String model = key.substring((p + MODEL_IDS).length());
                String id = string(key).orElse("");
                if (id.isEmpty() || id.chars().anyMatch(ch -> ch <= ' ')) {
                    problems.add(key + ": the id the provider knows " + model + " by, without spaces or control "
                            + "characters, but was '" + id + "'" + source(key));
                } else {
                    ids.put(model, id);
                }
            }
        }
        return ids;
    }

    /**
     * Adds to every connection the known {@code vendor/model} ids of its vendors that its provider has an id for. Known:
     * the built-in price list's, the configured providers' {@code knownModels()}, and those any connection lists or
     * maps, or {@code baton.models.*} describes.
     */
    private List<ConnectionConfig> servingVendors(List<ConnectionConfig> connections, Set<String> profiled) {
        Set<String> known = new TreeSet<>(PriceList.builtIn().prices().keySet());
        connections.forEach(c -> known.addAll(c.modelIds().keySet()));
        connections.stream().map(c -> providers.get(c.provider())).distinct()
                .forEach(factory -> known.addAll(factory.knownModels()));
        known.addAll(profiled);
        known.removeIf(m -> m.indexOf('/') <= 0);
        List<ConnectionConfig> result = new ArrayList<>();
        for (ConnectionConfig c : connections) {
            ProviderAdapterFactory factory = providers.get(c.provider());
            Map<String, String> more = new LinkedHashMap<>();
            for (String model : known) {
                int slash = model.indexOf('/');
                String vendor = model.substring(0, slash);
                if (!c.serves(model) && c.vendors().contains(vendor)) {
                    factory.modelId(vendor, model.substring(slash + 1), c.settings())
                            .ifPresent(id -> more.put(model, id));
                }
            }
            result.add(more.isEmpty() ? c : c.servingAlso(more));
        }
        return result;
    }

    /**
     * Reads the keys connection {@code p}'s provider declared into {@code settings} and {@code modelSettings}, and
     * refuses those only another provider reads (a key no provider reads was refused as unknown already).
     */
    private void providerKeys(String p, String provider, ProviderAdapterFactory factory, List<String> models,
                              Map<String, String> settings, Map<String, Map<String, String>> modelSettings) {
        Set<ConnectionKey> own = factory == null ? Set.of() : factory.connectionKeys();
        for (ConnectionKey k : own) {
            if (!k.perModel()) {
                String key = p + k.name();
                String value = k.required() ? required(key) : string(key).orElse(null);
                keepSecret(k, value);
                if (value != null && formatted(key, k, value)) {
                    settings.put(k.setting(), value);
                }
            }
        }
        for (String key : keys) {
            if (!key.startsWith(p)) {
                continue;
            }
            String rest = key.substring(p.length());
            Optional<ConnectionKey> family = own.stream().filter(k -> k.perModel() && rest.startsWith(k.name() + "."))
                    .findFirst();
            if (family.isPresent()) {
                String model = rest.substring(family.get().name().length() + 1);
                String value = string(key).orElse("");
                keepSecret(family.get(), value);
                if (!models.isEmpty() && !models.contains(model)) {
                    problems.add(key + ": the model '" + model + "' is not in " + p + "models " + models + source(key));
                } else if (formatted(key, family.get(), value)) {
                    modelSettings.computeIfAbsent(model, m -> new TreeMap<>()).put(family.get().setting(), value);
                }
            } else if (factory != null && own.stream().noneMatch(k -> k.name().equals(rest))) {
                otherProvidersKey(key, rest, provider);
            }
        }
    }

    /** Refuses {@code key} when it is one only other providers read. */
    private void otherProvidersKey(String key, String rest, String provider) {
        for (boolean perModel : new boolean[] {false, true}) {
            List<String> readers = new ArrayList<>();
            String name = null;
            for (ProviderAdapterFactory other : providers.values()) {
                for (ConnectionKey k : other.connectionKeys()) {
                    if (k.perModel() == perModel && (perModel ? rest.startsWith(k.name() + ".") : rest.equals(k.name()))) {
                        readers.add("'" + other.id() + "'");
                        name = k.name();
                    }
                }
            }
            if (!readers.isEmpty()) {
                problems.add(key + ": " + (perModel ? name + " are only" : "only") + " read for provider "
                        + String.join(", ", readers) + ", not '" + provider + "'" + source(key));
                return;
            }
        }
    }

    /** A declared secret's value is redacted from the report, as an api-key's is. */
    private void keepSecret(ConnectionKey declared, String value) {
        if (declared.secret() && value != null && value.length() >= 4) {
            secrets.add(value);
        }
    }

    private boolean formatted(String key, ConnectionKey declared, String value) {
        if (declared.format() == null || declared.format().matcher(value).matches()) {
            return true;
        }
        problems.add(key + ": '" + value + "' is not " + declared.formatName() + source(key));
        return false;
    }

    /**
     * A route's {@code targets}: {@code connection/model} entries separated by commas, each optionally followed by
     * {@code weight=<1-1000>}, in tiers separated by {@code |}.
     */
    private Optional<RouteConfig> route(String name, List<ConnectionConfig> connections, RoutePolicy defaults) {
        String key = ROUTES + "." + name + ".targets";
        List<TargetRef> targets = new ArrayList<>();
        Map<TargetRef, Integer> tiers = new LinkedHashMap<>();
        Map<TargetRef, Integer> weights = new LinkedHashMap<>();
        String value = required(key);
        String[] tierTexts = value == null ? new String[0] : value.split("\\|", -1);
        for (int tier = 0; tier < tierTexts.length; tier++) {
            List<String> entries = list(tierTexts[tier]);
            if (entries.isEmpty() && tierTexts.length > 1) {
                problems.add(key + ": tier " + (tier + 1) + " of '" + value + "' names no target" + source(key));
            }
            for (String entry : entries) {
                String target = entry.split("\\s+")[0];
                Integer weight = weight(key, entry);
                int slash = target.indexOf('/');
                if (slash <= 0 || slash == target.length() - 1) {
                    problems.add(key + ": '" + entry + "' must be written connection/model" + source(key));
                    continue;
                }
                TargetRef ref = new TargetRef(target.substring(0, slash), target.substring(slash + 1));
                Optional<ConnectionConfig> connection = connections.stream()
                        .filter(c -> c.name().equals(ref.connection())).findFirst();
                if (connection.isEmpty()) {
                    problems.add(key + ": '" + entry + "' names the connection '" + ref.connection()
                            + "', which is not configured (or is invalid)" + source(key));
                } else if (!connection.get().serves(ref.model())) {
                    problems.add(key + ": '" + entry + "' names the model '" + ref.model() + "', which the connection '"
                            + ref.connection() + "' does not serve: it is not in its models " + connection.get().models()
                            + ", its model-ids, nor a known model of its vendors " + new TreeSet<>(connection.get().vendors())
                            + source(key));
                } else if (targets.contains(ref)) {
                    problems.add(key + ": '" + target + "' is listed twice" + source(key));
                } else {
                    targets.add(ref);
                    tiers.put(ref, tier);
                    if (weight != null) {
                        weights.put(ref, weight);
                    }
                }
            }
        }
        RoutePolicy policy = policy(ROUTES + "." + name, defaults);
        if (!weights.isEmpty() && !policy.balance().usesWeights()) {
            problems.add(key + ": weights have no effect with balance=" + policy.balance().wireName() + "; set "
                    + ROUTES + "." + name + ".balance to weighted, adaptive or sticky, or remove them" + source(key));
        }
        return value == null || targets.isEmpty() ? Optional.empty()
                : Optional.of(new RouteConfig(name, targets, policy, tiers, weights));
    }

    /** The {@code weight=<n>} after a route target, or {@code null} when it has none (or a bad one, reported). */
    private Integer weight(String key, String entry) {
        String[] words = entry.split("\\s+");
        Integer weight = null;
        for (int w = 1; w < words.length; w++) {
            if (!words[w].startsWith("weight=")) {
                problems.add(key + ": '" + entry + "': '" + words[w] + "' is not an attribute of a target; write "
                        + "connection/model, optionally followed by weight=<1-" + RouteConfig.MAX_WEIGHT + ">" + source(key));
                continue;
            }
            try {
                weight = wholeNumber(words[w].substring("weight=".length()), 1, RouteConfig.MAX_WEIGHT);
            } catch (IllegalArgumentException e) {
                problems.add(key + ": '" + entry + "': the weight " + e.getMessage() + source(key));
            }
        }
        return weight;
    }

    private RoutePolicy policy(String prefix, RoutePolicy base) {
        String p = prefix + ".";
        Duration max = Duration.ofHours(1);
        Duration deadline = duration(p + "deadline", base.deadline(), Duration.ofMillis(1), max);
        Duration attempt = duration(p + "attempt-timeout", base.attemptTimeout(), Duration.ofMillis(1), max);
        Duration firstToken = duration(p + "first-token-timeout", base.firstTokenTimeout(), Duration.ofMillis(1), max);
        Duration idle = duration(p + "stream-idle-timeout", base.streamIdleTimeout(), Duration.ofMillis(1), max);
        int retries = integer(p + "same-target-retries", base.sameTargetRetries(), 0, 3);
        Duration backoff = duration(p + "retry-backoff", base.retryBackoff(), Duration.ZERO, Duration.ofMinutes(1));
        Duration backoffMax = duration(p + "retry-backoff-max", base.retryBackoffMax(), Duration.ZERO, Duration.ofMinutes(5));
        Duration maxWait = duration(p + "max-wait", base.maxWait(), Duration.ZERO, RoutePolicy.MAX_MAX_WAIT);
        Map<FailureKind, FailureAction> actions = new EnumMap<>(base.actions());
        for (FailureKind kind : FailureKind.values()) {
            read(p + "on." + kind.wireName(), raw -> action(raw, kind)).ifPresent(a -> actions.put(kind, a));
        }
        for (String key : keys) {
            if (key.startsWith(p + "on.")) {
                String kind = key.substring((p + "on.").length());
                if (Arrays.stream(FailureKind.values()).noneMatch(k -> k.wireName().equals(kind))) {
                    problems.add(key + ": '" + kind + "' is not a failure kind; expected one of "
                            + Arrays.stream(FailureKind.values()).map(FailureKind::wireName).toList() + source(key));
                }
            }
        }
        String degraded = read(p + "degraded", ConfigLoader::degradedText).orElse(base.degraded());
        Balance balance = read(p + "balance", Balance::parse).orElse(base.balance());
        return new RoutePolicy(deadline, attempt, firstToken, idle, retries, backoff, backoffMax, maxWait, actions,
                degraded, balance);
    }

    private record Rate(int permits, Duration window) {
    }

    /** {@code 60/1m}: 60 requests per minute. */
    private static Rate rate(String raw) {
        int slash = raw.indexOf('/');
        String usage = "'" + raw + "' must be written <requests>/<duration>, for example 60/1m";
        if (slash <= 0) {
            throw new IllegalArgumentException(usage);
        }
        int permits;
        Duration window;
        try {
            permits = Integer.parseInt(raw.substring(0, slash).strip());
            window = Durations.parse(raw.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(usage);
        }
        if (permits < 1 || permits > 1_000_000) {
            throw new IllegalArgumentException("requests must be between 1 and 1000000 but was " + permits);
        }
        if (window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(Duration.ofHours(24)) > 0) {
            throw new IllegalArgumentException("the window must be between 1ms and 24h but was " + raw.substring(slash + 1).strip());
        }
        return new Rate(permits, window);
    }

    private URI baseUrl(String key, String value) {
        try {
            URI uri = new URI(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
            if (uri.getHost() == null || uri.getScheme() == null) {
                problems.add(key + ": '" + value + "' is not an absolute URL" + source(key));
                return null;
            }
            if (uri.getUserInfo() != null || uri.getQuery() != null) {
                problems.add(key + ": '" + uri.getHost() + "' must not carry user info or a query (keys belong in api-key)"
                        + source(key));
                return null;
            }
            boolean https = "https".equalsIgnoreCase(uri.getScheme());
            if (!https && !("http".equalsIgnoreCase(uri.getScheme()) && isLoopback(uri))) {
                problems.add(key + ": '" + value + "' must use https (plain http is allowed only for loopback hosts)"
                        + source(key));
                return null;
            }
            return uri;
        } catch (URISyntaxException e) {
            problems.add(key + ": '" + value + "' is not a URL (" + e.getReason() + ")" + source(key));
            return null;
        }
    }

    static boolean isLoopback(URI uri) {
        String host = uri.getHost();
        return host != null && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]")
                || host.equals("::1"));
    }

    private String required(String key) {
        Optional<String> value = string(key);
        if (value.isEmpty()) {
            if (!unresolved(key)) { // already reported by string()
                problems.add(key + ": required");
            }
            return null;
        }
        return value.get();
    }

    private Optional<String> string(String key) {
        return read(key, Function.identity());
    }

    /** Like {@link #string} but a failure never shows the value. */
    private String secret(String key) {
        try {
            String value = config.getOptionalValue(key, String.class).map(String::strip).filter(s -> !s.isEmpty())
                    .orElse(null);
            if (value == null && unresolved(key)) {
                problems.add(key + ": cannot be read (is the environment variable it refers to set?)" + source(key));
            }
            if (value != null && value.length() >= 4) {
                secrets.add(value);
            }
            return value;
        } catch (RuntimeException e) {
            problems.add(key + ": cannot be read (is the environment variable it refers to set?)" + source(key));
            return null;
        }
    }

    /**
     * Whether {@code key} is set but its expression could not be expanded ({@code ${OPENAI_API_KEY}} with the
     * variable unset). SmallRye Config answers such a lookup through {@code getOptionalValue} with an empty
     * value instead of an exception, which would otherwise pass for "not configured" and fall back to a default.
     * An expression with an explicit empty default ({@code ${X:}}) resolves to the empty string and is not unresolved.
     */
    private boolean unresolved(String key) {
        try {
            var value = config.getConfigValue(key);
            return value.getRawValue() != null && !value.getRawValue().isBlank() && value.getValue() == null;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private int integer(String key, int defaultValue, int min, int max) {
        return read(key, raw -> wholeNumber(raw, min, max)).orElse(defaultValue);
    }

    private Duration duration(String key, Duration defaultValue, Duration min, Duration max) {
        return read(key, raw -> duration(raw, min, max)).orElse(defaultValue);
    }

    /** Parses a whole number in {@code [min, max]}; the exception's message is the problem to report. */
    static int wholeNumber(String raw, int min, int max) {
        int value;
        try {
            value = Integer.parseInt(raw.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + raw + "' is not a whole number");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("must be between " + min + " and " + max + " but was " + value);
        }
        return value;
    }

    /** Parses a duration in {@code [min, max]}; the exception's message is the problem to report. */
    static Duration duration(String raw, Duration min, Duration max) {
        Duration value = Durations.parse(raw);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException("must be between " + Durations.format(min) + " and "
                    + Durations.format(max) + " but was " + raw.strip());
        }
        return value;
    }

    /** Who probes an ejected connection: {@code background} or {@code request}. */
    static HealthPolicy.Probe probe(String raw) {
        for (HealthPolicy.Probe probe : HealthPolicy.Probe.values()) {
            if (probe.wireName().equals(raw.strip().toLowerCase(Locale.ROOT))) {
                return probe;
            }
        }
        throw new IllegalArgumentException("'" + raw + "' is not one of [background, request]");
    }

    /** An action for {@code kind}; {@code retry} only where a second try on the same target can help. */
    static FailureAction action(String raw, FailureKind kind) {
        FailureAction action;
        try {
            action = FailureAction.valueOf(raw.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + raw + "' is not one of [retry, failover, stop]");
        }
        if (action == FailureAction.RETRY && !RoutePolicy.RETRYABLE_KINDS.contains(kind)) {
            throw new IllegalArgumentException("'" + raw + "' is not allowed: a " + kind.wireName()
                    + " failure is never retried on the same target; use failover or stop");
        }
        return action;
    }

    /** A degraded answer's text, at most {@link RoutePolicy#MAX_DEGRADED_LENGTH} characters. */
    static String degradedText(String raw) {
        if (raw.length() > RoutePolicy.MAX_DEGRADED_LENGTH) {
            throw new IllegalArgumentException("must be at most " + RoutePolicy.MAX_DEGRADED_LENGTH
                    + " characters but has " + raw.length());
        }
        return raw;
    }


    private <T> Optional<T> read(String key, Function<String, T> parse) {
        Optional<String> raw;
        try {
            raw = config.getOptionalValue(key, String.class).map(String::strip).filter(s -> !s.isEmpty());
        } catch (RuntimeException e) {
            problems.add(key + ": cannot be read: " + e.getMessage() + source(key));
            return Optional.empty();
        }
        if (raw.isEmpty()) {
            if (unresolved(key)) {
                problems.add(key + ": cannot be read (is the environment variable or property it refers to set?)"
                        + source(key));
            }
            return Optional.empty();
        }
        try {
            return Optional.of(parse.apply(raw.get()));
        } catch (IllegalArgumentException e) {
            problems.add(key + ": " + e.getMessage() + source(key));
            return Optional.empty();
        }
    }

    private String source(String key) {
        return source(config, key);
    }

    /** " (from <config source>)" for messages about {@code key}, or nothing when the source is unknown. */
    static String source(Config config, String key) {
        try {
            String source = config.getConfigValue(key).getSourceName();
            return source == null ? "" : " (from " + source + ")";
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static List<String> concat(Collection<String> a, Collection<String> b) {
        List<String> result = new ArrayList<>(a);
        result.addAll(b);
        return List.copyOf(result);
    }

    static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
