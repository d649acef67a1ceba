package dev.baton.impl.config;

import dev.baton.Cost;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What a model costs per million tokens: uncached input, cached input (read from a prompt cache) and
 * output, in one currency. Immutable.
 *
 * @param input       per million uncached input tokens
 * @param cachedInput per million input tokens read from the provider's prompt cache
 * @param output      per million output tokens (reasoning tokens included, as providers bill them)
 * @param currency    an ISO-4217-style code, {@code USD} by default
 * @param source      {@code custom} (from {@code baton.models.<model>.price.*}) or {@code list} (the built-in list)
 */
public record ModelPrice(BigDecimal input, BigDecimal cachedInput, BigDecimal output, String currency, String source) {

    public static final String CUSTOM = "custom";
    public static final String LIST = "list";
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    /** Enough digits for a single token of the cheapest model; trailing zeros are dropped. */
    private static final int SCALE = 12;

    public ModelPrice {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(cachedInput, "cachedInput");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(source, "source");
    }

    /**
     * The cost of an OpenAI-shaped {@code usage}: cached prompt tokens
     * ({@code prompt_tokens_details.cached_tokens}) at the cached rate, the rest of {@code prompt_tokens} at the input
     * rate, {@code completion_tokens} at the output rate. {@code null} when {@code usage} is.
     */
    public Cost cost(JsonObject usage) {
        if (usage == null) {
            return null;
        }
        long prompt = tokens(usage, "prompt_tokens");
        long cached = usage.get("prompt_tokens_details") instanceof JsonObject details
                ? Math.min(prompt, tokens(details, "cached_tokens")) : 0;
        long completion = tokens(usage, "completion_tokens");
        BigDecimal total = input.multiply(BigDecimal.valueOf(prompt - cached))
                .add(cachedInput.multiply(BigDecimal.valueOf(cached)))
                .add(output.multiply(BigDecimal.valueOf(completion)));
        BigDecimal amount = total.divide(MILLION, SCALE, RoundingMode.HALF_UP).stripTrailingZeros();
        return new Cost(amount.signum() == 0 ? BigDecimal.ZERO : amount, currency, source);
    }

    /** A count, 0 when absent, negative or not a number: a provider's odd usage never fails an answer. */
    private static long tokens(JsonObject object, String field) {
        return object.get(field) instanceof JsonNumber n ? Math.max(0, n.longValue()) : 0;
    }
}
