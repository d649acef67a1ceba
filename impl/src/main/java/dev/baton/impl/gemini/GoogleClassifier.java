package dev.baton.impl.gemini;

import dev.baton.FailureKind;

import java.util.Set;

/**
 * The Google failure table: {@code (HTTP status, error.status, ErrorInfo.reason)} to a {@link FailureKind}, for the
 * Gemini API and Vertex AI. A pure function: no I/O, no clock, no logging; never decided on message text. Rules are
 * in precedence order; each names the row of the failure table in {@code docs/design.md} it implements.
 */
public final class GoogleClassifier {

    /**
     * ErrorInfo reasons of a key Google does not accept. The Gemini API answers a wrong or expired API key with
     * 400 INVALID_ARGUMENT, not 401, so only the reason tells it from a malformed request.
     */
    static final Set<String> KEY_REASONS = Set.of("API_KEY_INVALID", "API_KEY_EXPIRED", "API_KEY_SERVICE_BLOCKED");

    private GoogleClassifier() {
    }

    /**
     * @param status       the HTTP status, or 0 for an error event inside a stream that had answered 200
     * @param googleStatus {@code error.status} ({@code google.rpc.Code} name), or {@code null}
     * @param reason       the {@code google.rpc.ErrorInfo} reason, or {@code null}
     */
    public static FailureKind classify(int status, String googleStatus, String reason) {
        // credential: a key Google refused, whatever status it came with (400 API_KEY_INVALID on the Gemini API).
        if (reason != null && KEY_REASONS.contains(reason)) {
            return FailureKind.CREDENTIAL;
        }
        // spend_limit: the project's billing is off (403 PERMISSION_DENIED, reason BILLING_DISABLED): money, not a key.
        if ("BILLING_DISABLED".equals(reason)) {
            return FailureKind.SPEND_LIMIT;
        }
        if (googleStatus != null) {
            switch (googleStatus) {
                // rate_limit: 429 RESOURCE_EXHAUSTED, a quota per minute or per day (the RetryInfo says how long).
                case "RESOURCE_EXHAUSTED":
                    return FailureKind.RATE_LIMIT;
                // credential: 401 UNAUTHENTICATED (a missing, wrong or expired token), 403 PERMISSION_DENIED.
                case "UNAUTHENTICATED", "PERMISSION_DENIED":
                    return FailureKind.CREDENTIAL;
                // model_not_served: 404 NOT_FOUND, a model the project cannot use there.
                case "NOT_FOUND":
                    return FailureKind.MODEL_NOT_SERVED;
                // invalid_request: 400 INVALID_ARGUMENT, FAILED_PRECONDITION (a region or tier the API refuses),
                // OUT_OF_RANGE, and 501 UNIMPLEMENTED (a method this model does not offer).
                case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE", "UNIMPLEMENTED":
                    return FailureKind.INVALID_REQUEST;
                // timeout: 504 DEADLINE_EXCEEDED, the provider ran out of time.
                case "DEADLINE_EXCEEDED":
                    return FailureKind.TIMEOUT;
                // server_error: 500 INTERNAL, 503 UNAVAILABLE, UNKNOWN, ABORTED, DATA_LOSS, CANCELLED.
                case "INTERNAL", "UNAVAILABLE", "UNKNOWN", "ABORTED", "DATA_LOSS", "CANCELLED":
                    return FailureKind.SERVER_ERROR;
                default:
                    break; // a status added after this code: the HTTP status decides
            }
        }
        return byStatus(status);
    }

    /** The table for an answer without a Google status (a proxy's page, an in-stream error). */
    private static FailureKind byStatus(int status) {
        if (status == 429) {
            return FailureKind.RATE_LIMIT;
        }
        if (status == 401 || status == 403) {
            return FailureKind.CREDENTIAL;
        }
        if (status == 404) {
            return FailureKind.MODEL_NOT_SERVED;
        }
        if (status == 408 || status == 504) {
            return FailureKind.TIMEOUT;
        }
        if (status == 0 || status == 409 || status >= 500) {
            return FailureKind.SERVER_ERROR;
        }
        return FailureKind.INVALID_REQUEST;
    }
}
