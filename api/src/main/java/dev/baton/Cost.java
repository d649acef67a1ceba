package dev.baton;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The estimated provider cost of one answer: its token usage at the served model's rate. An
 * estimate, not a bill: the provider's own invoice is the authority.
 *
 * @param amount      the estimate, in {@code currency}
 * @param currency    the currency of the model's price, for example {@code USD}
 * @param priceSource where the rate came from: {@code custom} (configured) or {@code list} (Baton's
 *                    dated built-in list of public list prices)
 */
public record Cost(BigDecimal amount, String currency, String priceSource) {

    public Cost {
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(priceSource, "priceSource");
    }
}
