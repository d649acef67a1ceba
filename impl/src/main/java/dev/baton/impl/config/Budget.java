package dev.baton.impl.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much may be spent per period, in the currency of the models' prices: by a named gateway key
 * ({@code baton.endpoint.keys.<name>.budget}), through a route ({@code baton.routes.<name>.budget}) or on a connection
 * ({@code baton.connections.<name>.budget}, a provider account's cap). Periods are fixed windows counted from the Unix
 * epoch in UTC: {@code 1d} resets at 00:00 UTC, {@code 1h} on the hour, {@code 30d} every 30 days from 1970-01-01.
 * Fixed windows make the reset time something a caller can be told, let every node of a cluster agree on the period
 * without talking, and let a restart find the current period's spend by summing records. Immutable.
 *
 * @param amount the most that may be spent in one period, more than 0
 * @param period the length of a period, from 1 minute to 366 days
 */
public record Budget(BigDecimal amount, Duration period) {

    private static final Pattern FORM = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*/\\s*(\\S+)\\s*");
    private static final Pattern DAYS = Pattern.compile("(\\d{1,4})d");
    static final Duration MIN_PERIOD = Duration.ofMinutes(1);
    static final Duration MAX_PERIOD = Duration.ofDays(366);

    /**
     * Reads {@code <amount>/<period>}: {@code 50/1d}, {@code 1000/30d}, {@code 2.5/1h}.
     *
     * @throws IllegalArgumentException saying what is wrong, with the accepted form
     */
    public static Budget parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' must be written <amount>/<period>, for example 50/1d or"
                    + " 1000/30d");
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("the amount must be more than 0 but was " + m.group(1));
        }
        String p = m.group(2);
        Matcher days = DAYS.matcher(p);
        Duration period = days.matches() ? Duration.ofDays(Long.parseLong(days.group(1))) : Durations.parse(p);
        if (period.compareTo(MIN_PERIOD) < 0 || period.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException("the period must be between 1m and 366d but was " + p);
        }
        return new Budget(amount, period);
    }

    /** The period as configured: {@code 1d}, {@code 12h}, {@code 30m}, else whole seconds. */
    public String periodText() {
        long s = period.toSeconds();
        return s % 86_400 == 0 ? s / 86_400 + "d" : s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /** The start of the period {@code at} falls in. */
    public Instant periodStart(Instant at) {
        long length = period.toMillis();
        return Instant.ofEpochMilli(Math.floorDiv(at.toEpochMilli(), length) * length);
    }

    /** When the period {@code at} falls in ends, and the budget is whole again. */
    public Instant resetAfter(Instant at) {
        return periodStart(at).plus(period);
    }
}
