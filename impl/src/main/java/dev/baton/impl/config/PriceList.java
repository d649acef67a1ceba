package dev.baton.impl.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Baton's built-in list of public list prices for common OpenAI and Anthropic models
 * ({@code prices.properties} beside this class), dated by its {@code as-of} entry. Prices change: the list is a
 * default to check, not a source of truth, and {@code baton.models.<model>.price.*} overrides any entry. Immutable.
 */
public final class PriceList {

    static final String RESOURCE = "prices.properties";
    private static final PriceList BUILT_IN = load();

    private final LocalDate asOf;
    private final Map<String, ModelPrice> prices;

    private PriceList(LocalDate asOf, Map<String, ModelPrice> prices) {
        this.asOf = asOf;
        this.prices = Map.copyOf(prices);
    }

    public static PriceList builtIn() {
        return BUILT_IN;
    }

    /** The day the list's prices were taken from the vendors' pricing pages. */
    public LocalDate asOf() {
        return asOf;
    }

    public Optional<ModelPrice> price(String model) {
        return Optional.ofNullable(prices.get(model));
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
