package dev.baton.impl.config;

import org.eclipse.microprofile.config.Config;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads {@code baton.models.<model>.*} into {@link ModelProfile}s.
 *
 * <p>Model names may contain dots ({@code gpt-5.4-mini}), so a key is read from the right: the part after
 * the last dot is the attribute, everything between {@code baton.models.} and it is the model. Model names are
 * therefore discovered from dotted keys only; {@link ConfigLoader} checks {@code BATON_MODELS_*} variables with
 * the other environment variables.
 */
final class ModelProfiles {

    static final String PREFIX = ConfigLoader.MODELS + ".";
    static final String TOOLS = "tools";
    static final String CONTEXT_WINDOW = "context-window";
    static final String MODALITIES = "modalities";
    static final String MAX_OUTPUT_TOKENS = "max-output-tokens";
    static final String PRICE = "price.";
    static final List<String> PRICE_ATTRIBUTES = List.of("input", "cached-input", "output", "currency");
    static final List<String> ATTRIBUTES = List.of(TOOLS, CONTEXT_WINDOW, MODALITIES, MAX_OUTPUT_TOKENS, PRICE + "input",
            PRICE + "cached-input", PRICE + "output", PRICE + "currency");
    /** Far above any real rate: a larger one is a typo (a price per token written per million, say). */
    private static final BigDecimal MAX_PRICE = BigDecimal.valueOf(100_000);
    static final int MAX_CONTEXT_WINDOW = 10_000_000;
    /** The input modalities a model may be configured with. */
    static final Set<String> KNOWN_MODALITIES = Set.of("text", "image", "audio");

    private ModelProfiles() {
    }

    /**
     * @param keys     every {@code baton.*} key
     * @param problems where to report each bad key, naming it
     */
    static Map<String, ModelProfile> load(Config config, Set<String> keys, List<String> problems) {
        Set<String> served = servedModels(config, keys);
        Map<String, ModelProfile> profiles = new TreeMap<>();
        Map<String, Map<String, String>> prices = new TreeMap<>();
        for (String key : keys) {
            if (!key.startsWith(PREFIX)) {
                continue;
            }
            String rest = key.substring(PREFIX.length());
            int priceAt = rest.lastIndexOf("." + PRICE);
            if (priceAt > 0 && PRICE_ATTRIBUTES.contains(rest.substring(priceAt + PRICE.length() + 1))) {
                String model = rest.substring(0, priceAt);
                if (!served.contains(model)) {
                    problems.add(key + ": no connection lists the model '" + model + "' in baton.connections.<name>.models"
                            + ConfigLoader.source(config, key));
                } else {
                    raw(config, key, problems).ifPresent(v -> prices.computeIfAbsent(model, m -> new TreeMap<>())
                            .put(rest.substring(priceAt + PRICE.length() + 1), v));
                }
                continue;
            }
            int dot = rest.lastIndexOf('.');
            if (dot <= 0 || dot == rest.length() - 1) {
                problems.add(key + ": expected " + PREFIX + "<model>.<attribute>, the attribute one of "
                        + ATTRIBUTES + ConfigLoader.source(config, key));
                continue;
            }
            String model = rest.substring(0, dot);
            String attribute = rest.substring(dot + 1);
            if (!ATTRIBUTES.contains(attribute)) {
                problems.add(key + ": '" + attribute + "' is not a model attribute; expected one of "
                        + ATTRIBUTES + ConfigLoader.source(config, key));
                continue;
            }
            if (!served.contains(model)) {
                problems.add(key + ": no connection lists the model '" + model + "' in baton.connections.<name>.models"
                        + ConfigLoader.source(config, key));
                continue;
            }
            Optional<String> raw = raw(config, key, problems);
            if (raw.isEmpty()) {
                continue;
            }
            ModelProfile p = profiles.getOrDefault(model, ModelProfile.unknown(model));
            String value = raw.get();
            try {
                profiles.put(model, switch (attribute) {
                    case TOOLS -> p.withTools(bool(value));
                    case CONTEXT_WINDOW -> p.withContextWindow(tokenCount(value));
                    case MAX_OUTPUT_TOKENS -> p.withMaxOutputTokens(tokenCount(value));
                    default -> p.withModalities(modalities(value));
                });
            } catch (IllegalArgumentException e) {
                problems.add(key + ": " + e.getMessage() + ConfigLoader.source(config, key));
            }
        }
        prices.forEach((model, rates) -> price(config, PREFIX + model + "." + PRICE, rates, problems).ifPresent(
                price -> profiles.put(model, profiles.getOrDefault(model, ModelProfile.unknown(model)).withPrice(price))));
        return profiles;
    }

    /**
     * A custom price from its keys: input and output are required, cached input defaults to the input rate (a
     * provider without a prompt cache bills every input token alike), the currency to USD.
     */
    private static Optional<ModelPrice> price(Config config, String prefix, Map<String, String> rates,
                                              List<String> problems) {
        int before = problems.size();
        BigDecimal input = rate(config, prefix + "input", rates.get("input"), problems);
        BigDecimal output = rate(config, prefix + "output", rates.get("output"), problems);
        BigDecimal cached = rates.containsKey("cached-input")
                ? rate(config, prefix + "cached-input", rates.get("cached-input"), problems) : input;
        String currency = rates.getOrDefault("currency", "USD");
        if (!currency.matches("[A-Z]{3}")) {
            problems.add(prefix + "currency: '" + currency + "' is not a three-letter currency code such as USD"
                    + ConfigLoader.source(config, prefix + "currency"));
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ModelPrice(input, cached, output, currency, ModelPrice.CUSTOM));
    }

    /** A price per million tokens; a missing one is reported as required. */
    private static BigDecimal rate(Config config, String key, String value, List<String> problems) {
        if (value == null) {
            problems.add(key + ": required when any " + key.substring(0, key.lastIndexOf('.') + 1)
                    + "* key is set (a price per million tokens, e.g. 2.50)");
            return null;
        }
        try {
            BigDecimal rate = new BigDecimal(value);
            if (rate.signum() < 0 || rate.compareTo(MAX_PRICE) > 0) {
                problems.add(key + ": must be between 0 and " + MAX_PRICE + " (per million tokens) but was " + value
                        + ConfigLoader.source(config, key));
            }
            return rate;
        } catch (NumberFormatException e) {
            problems.add(key + ": '" + value + "' is not a price per million tokens, e.g. 2.50"
                    + ConfigLoader.source(config, key));
            return null;
        }
    }

    private static boolean bool(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + value + "' is not true or false");
        };
    }

    private static int tokenCount(String value) {
        int tokens;
        try {
            tokens = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a whole number of tokens");
        }
        if (tokens < 1 || tokens > MAX_CONTEXT_WINDOW) {
            throw new IllegalArgumentException("must be between 1 and " + MAX_CONTEXT_WINDOW + " but was " + tokens);
        }
        return tokens;
    }

    private static Set<String> modalities(String value) {
        Set<String> result = new LinkedHashSet<>();
        for (String m : ConfigLoader.list(value)) {
            if (!KNOWN_MODALITIES.contains(m)) {
                throw new IllegalArgumentException("'" + m + "' is not a modality; expected some of [text, image, audio]");
            }
            result.add(m);
        }
        if (!result.contains("text")) {
            throw new IllegalArgumentException("'" + value + "' must include text: every chat model reads text");
        }
        return result;
    }

    /** The value, stripped; empty when unset or blank (the default applies). A value that cannot be read is a problem. */
    private static Optional<String> raw(Config config, String key, List<String> problems) {
        try {
            Optional<String> value = config.getOptionalValue(key, String.class).map(String::strip).filter(s -> !s.isEmpty());
            var configValue = config.getConfigValue(key);
            if (value.isEmpty() && configValue.getRawValue() != null && !configValue.getRawValue().isBlank()) {
                problems.add(key + ": cannot be read (is the environment variable or property it refers to set?)"
                        + ConfigLoader.source(config, key));
            }
            return value;
        } catch (RuntimeException e) {
            problems.add(key + ": cannot be read: " + e.getMessage() + ConfigLoader.source(config, key));
            return Optional.empty();
        }
    }

    /**
     * Every model some connection lists, read the way {@link ConfigLoader} finds connections: the names in
     * {@code baton.connections} when set, else those discovered from keys. An invalid connection's models still
     * count: its own problem is reported by {@link ConfigLoader}, and one problem is enough.
     */
    private static Set<String> servedModels(Config config, Set<String> keys) {
        Set<String> names = new TreeSet<>();
        String prefix = ConfigLoader.CONNECTIONS + ".";
        Optional<String> explicit;
        try {
            explicit = config.getOptionalValue(ConfigLoader.CONNECTIONS, String.class);
        } catch (RuntimeException e) {
            explicit = Optional.empty();
        }
        if (explicit.isPresent()) {
            names.addAll(ConfigLoader.list(explicit.get()));
        } else {
            for (String key : keys) {
                if (key.startsWith(prefix)) {
                    names.add(key.substring(prefix.length()).split("\\.", 2)[0]);
                }
            }
        }
        Set<String> models = new TreeSet<>();
        for (String name : names) {
            try {
                config.getOptionalValue(prefix + name + ".models", String.class).ifPresent(v -> models.addAll(ConfigLoader.list(v)));
            } catch (RuntimeException e) {
                // ConfigLoader reports the unreadable value.
            }
        }
        return models;
    }

}
