package dev.baton.impl.openai;

import dev.baton.FailureKind;

import java.util.Set;

/**
 * The OpenAI (and OpenAI-compatible) failure table: {@code (status, error.type, error.code)} to a
 * {@link FailureKind}. A pure function: no I/O, no clock, no logging; never decided on message
 * text. Rules are in precedence order; each cites the row of the failure table in
 * {@code docs/design.md} it implements.
 */
public final class OpenAiClassifier {

    /** OpenAI's money and quota codes: waiting does not help and another key of the account would spend around them. */
    static final Set<String> SPEND_CODES = Set.of("insufficient_quota", "credit_balance_exhausted",
            "organization_spend_limit_exceeded", "project_spend_limit_exceeded", "organization_usage_limit_exceeded");

    private OpenAiClassifier() {
    }

    /**
     * @param status the HTTP status, or 0 for an error event inside a stream that had answered 200
     * @param type   {@code error.type}, or {@code null}
     * @param code   {@code error.code}, or {@code null}
     */
    public static FailureKind classify(int status, String type, String code) {
        // spend_limit: a 429 whose type or code is about money is not a rate limit.
        if (code != null && SPEND_CODES.contains(code) || type != null && SPEND_CODES.contains(type) || status == 402) {
            return FailureKind.SPEND_LIMIT;
        }
        // rate_limit: every other 429 (rate_limit_exceeded, slow_down, requests/tokens windows).
        if (status == 429 || "rate_limit_exceeded".equals(code) || "slow_down".equals(code)) {
            return FailureKind.RATE_LIMIT;
        }
        // moderation: a safety refusal is not a malformed request.
        if ("content_policy_violation".equals(code) || "content_filter".equals(code)) {
            return FailureKind.MODERATION;
        }
        // model_not_served: 404, or an aggregator's "no channel for this model" (any status, code model_not_found).
        if (status == 404 || "model_not_found".equals(code)) {
            return FailureKind.MODEL_NOT_SERVED;
        }
        // credential: 401, and 403 unless it is a region policy (another provider may serve the region).
        if (status == 401 || "invalid_api_key".equals(code)) {
            return FailureKind.CREDENTIAL;
        }
        if (status == 403) {
            return "unsupported_country_region_territory".equals(code) ? FailureKind.INVALID_REQUEST : FailureKind.CREDENTIAL;
        }
        // timeout: the provider itself says the request timed out.
        if (status == 408) {
            return FailureKind.TIMEOUT;
        }
        // server_error: 409 conflicts (the SDKs retry them), every 5xx, and in-stream errors.
        if (status == 409 || status >= 500 || status == 0) {
            return FailureKind.SERVER_ERROR;
        }
        // invalid_request: 400, 413, 422 and the remaining 4xx (incl. context_length_exceeded).
        return FailureKind.INVALID_REQUEST;
    }
}
