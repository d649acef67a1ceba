package dev.baton;

import java.util.Locale;

/**
 * The class of a failed attempt. Each kind has a default {@link FailureAction}, which a route can
 * change; the table is in {@code docs/design.md}.
 */
public enum FailureKind {
    /** DNS, TLS, connection refused or reset before a response, or a stream that broke. */
    CONNECTION,
    /** No response headers within the attempt timeout, or no first output within the first-token timeout. */
    TIMEOUT,
    /** A 429 throughput limit; the connection is parked for the Retry-After, never ejected. */
    RATE_LIMIT,
    /** A 429, 402 or 400 that says the account cannot spend more this period. */
    SPEND_LIMIT,
    /** 500, 502, 503, 504, 529, or an error event before the commit point. */
    SERVER_ERROR,
    /** 401, or a 403 that is not a moderation or region policy. */
    CREDENTIAL,
    /** A provider's safety refusal. */
    MODERATION,
    /** 400, 413, 422 not covered by another kind. */
    INVALID_REQUEST,
    /** The connection answered that it cannot serve the model (404 model not found). */
    MODEL_NOT_SERVED;

    /** The lower-case name used in configuration keys, records and metrics, e.g. {@code rate_limit}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind for a {@link #wireName()}, or an {@link IllegalArgumentException} naming the valid ones. */
    public static FailureKind fromWireName(String name) {
        for (FailureKind kind : values()) {
            if (kind.wireName().equals(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown failure kind '" + name + "'; expected one of "
                + java.util.Arrays.stream(values()).map(FailureKind::wireName).toList());
    }
}
