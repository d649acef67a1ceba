package dev.baton.impl.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Baton's built-in list of public list prices for common models, by {@code vendor/model}
 * ({@code prices.properties} beside this class), dated by its {@code as-of} entry. Prices change: the list is a
 * default to check, not a source of truth, and {@code baton.models.<model>.price.*} overrides any entry. Immutable.
 */
public final class PriceList {

    static final String RESOURCE = "prices.properties";
    private static final PriceList BUILT_IN = load();

    private final LocalDate asOf;
    private final Map<String, ModelPrice> prices;
    /** The same prices by bare model name ({@code gpt-4o} for {@code openai/gpt-4o}), for requests that name one. */
    private final Map<String, ModelPrice> byBareName = new HashMap<>();

    private PriceList(LocalDate asOf, Map<String, ModelPrice> prices) {
        this.asOf = asOf;
        this.prices = Map.copyOf(prices);
        prices.forEach((model, price) -> byBareName.putIfAbsent(model.substring(model.indexOf('/') + 1), price));
    }

    public static PriceList builtIn() {
        return BUILT_IN;
    }

    /** The day the list's prices were taken from the vendors' pricing pages. */
    public LocalDate asOf() {
        return asOf;
    }

    /** The price of {@code vendor/model}, or of a bare model name by its vendor's entry. */
    public Optional<ModelPrice> price(String model) {
        ModelPrice price = prices.get(model);
        return Optional.ofNullable(price != null || model.indexOf('/') > 0 ? price : byBareName.get(model));
    }

    public Map<String, ModelPrice> prices() {
        return prices;
    }

    /** Each entry is {@code <model>=<input>, <cached input>, <output>}, USD per million tokens. */
    private static PriceList load() {
        Properties p = new Properties();
        try (InputStream in = PriceList.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from Baton's jar");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LocalDate asOf = LocalDate.parse(p.getProperty("as-of"));
        String currency = p.getProperty("currency");
        Map<String, ModelPrice> prices = new TreeMap<>();
        for (String model : p.stringPropertyNames()) {
            if (model.equals("as-of") || model.equals("currency")) {
                continue;
            }
            if (model.indexOf('/') <= 0) {
                throw new IllegalStateException(RESOURCE + ": " + model + " must be written vendor/model");
            }
            List<String> rates = ConfigLoader.list(p.getProperty(model));
            if (rates.size() != 3) {
                throw new IllegalStateException(RESOURCE + ": " + model + " must have three rates");
            }
            prices.put(model, new ModelPrice(new BigDecimal(rates.get(0)), new BigDecimal(rates.get(1)),
                    new BigDecimal(rates.get(2)), currency, ModelPrice.LIST));
        }
        return new PriceList(asOf, prices);
    }
}
