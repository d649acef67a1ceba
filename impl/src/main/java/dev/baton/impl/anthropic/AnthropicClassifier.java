package dev.baton.impl.anthropic;

import dev.baton.FailureKind;

import java.util.List;

/**
 * The Anthropic failure table: {@code (status, error.type, error.details.error_code)} to a
 * {@link FailureKind}. A pure function: no I/O, no clock, no logging. Rules are in precedence
 * order; each names the row of the failure table in {@code docs/design.md} (and
 * {@code docs/providers.md}) it implements. Message text decides exactly one rule, the self-set
 * usage limit, because nothing else distinguishes it.
 */
public final class AnthropicClassifier {

    /** {@code error.details.error_code} of a 429 for the tier's monthly spend cap (no retry-after). */
    static final String ENFORCED_SPEND_LIMIT = "enforced_spend_limit_reached";

    /** How the message of a 400 for a usage limit set on the organisation, or on one workspace, begins. */
    static final List<String> SELF_SET_USAGE_LIMITS = List.of("You have reached your specified API usage limits",
            "You have reached your specified workspace API usage limits");

    private AnthropicClassifier() {
    }

    /**
     * @param status     the HTTP status, or 0 for an {@code error} event inside a stream that had answered 200
     * @param type       {@code error.type}, or {@code null}
     * @param errorCode  {@code error.details.error_code}, or {@code null}
     * @param message    {@code error.message}, or {@code null}; read only for the self-set usage limit
     *                   (a retry-after header is not an input: a spend-limit 429 comes without one, but only
     *                   its {@code error_code} tells it apart, so the header alone never changes the kind)
     */
    public static FailureKind classify(int status, String type, String errorCode, String message) {
        // spend_limit: the tier's monthly cap, 429 rate_limit_error with error_code enforced_spend_limit_reached.
        // The code is exact, so it decides wherever it appears (also in a stream, and with a retry-after).
        if (ENFORCED_SPEND_LIMIT.equals(errorCode)) {
            return FailureKind.SPEND_LIMIT;
        }
        // in-stream error event (status 0): rate_limit_error is a rate limit; overloaded_error, api_error
        // and every other type are server errors ("would normally correspond to an HTTP 529").
        if (status == 0) {
            return "rate_limit_error".equals(type) ? FailureKind.RATE_LIMIT : FailureKind.SERVER_ERROR;
        }
        // spend_limit: 402 billing_error.
        if (status == 402 || "billing_error".equals(type)) {
            return FailureKind.SPEND_LIMIT;
        }
        // spend_limit: 400 for a usage limit set on the organisation or a workspace; only the message says so.
        if (status == 400 && message != null && SELF_SET_USAGE_LIMITS.stream().anyMatch(message::startsWith)) {
            return FailureKind.SPEND_LIMIT;
        }
        // rate_limit: every other 429 rate_limit_error (with or without retry-after; acceleration limits too).
        if (status == 429) {
            return FailureKind.RATE_LIMIT;
        }
        // credential: 401 authentication_error, 403 permission_error.
        if (status == 401 || status == 403) {
            return FailureKind.CREDENTIAL;
        }
        // model_not_served: 404 not_found_error (on /v1/messages the model is the only resource named).
        if (status == 404) {
            return FailureKind.MODEL_NOT_SERVED;
        }
        // server_error: 409 (the SDKs retry it), 500 api_error, 504 timeout_error, 529 overloaded_error, every 5xx.
        if (status == 409 || status >= 500) {
            return FailureKind.SERVER_ERROR;
        }
        // invalid_request: 400/422 invalid_request_error, 413 request_too_large, every other 4xx.
        return FailureKind.INVALID_REQUEST;
    }
}
