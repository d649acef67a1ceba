package dev.baton.exception;

import dev.baton.record.RequestRecord;

import java.time.Duration;
import java.util.List;

/**
 * Baton refused the request itself, before calling any provider: bad body, unknown model, route
 * or fallback, no connection for a model's vendor, a caller not allowed, a budget that cannot take
 * it. Never retryable (a budget says in {@link #retryAfter()} when it is whole again), never failed
 * over.
 */
public final class RequestRejectedException extends FailoverException {

    /**
     * @param status the HTTP status a client sees (4xx); {@code type}, {@code code} and {@code param} as OpenAI's
     *               {@code error} object has them ({@code param} may be {@code null})
     */
    public RequestRejectedException(String message, int status, String type, String code, String param) {
        super(message, status, type, code, param, null, false, null);
    }

    private RequestRejectedException(String message, int status, String type, String code, Duration retryAfter,
                                     RequestRecord record) {
        super(message, status, type, code, null, retryAfter, false, record);
    }

    /**
     * 402 {@code budget_exceeded}: a budget (a key's, a route's) cannot take what the request may cost.
     *
     * @param retryAfter when the budget is whole again, or {@code null} when the request alone costs more than it
     * @param record     the refused request's record
     */
    public static RequestRejectedException budgetExceeded(String message, Duration retryAfter, RequestRecord record) {
        return new RequestRejectedException(message, 402, "insufficient_quota", "budget_exceeded", retryAfter, record);
    }

    /** 400: the body is not a valid chat request; {@code param} names the field, or {@code null}. */
    public static RequestRejectedException invalidRequest(String message, String param) {
        return new RequestRejectedException(message, 400, "invalid_request_error", "invalid_request", param);
    }

    /** 400: entries of {@code fallbacks} that name no configured model, one message per entry. */
    public static RequestRejectedException unknownFallbacks(List<String> problems) {
        return new RequestRejectedException(String.join(" ", problems), 400, "invalid_request_error",
                "unknown_fallback_model", "fallbacks");
    }

    /** 404: {@code model} names neither a route nor a model any connection serves. */
    public static RequestRejectedException unknownModel(String model) {
        return unknownModel(model, null);
    }

    /** 404: as {@link #unknownModel(String)}, with {@code hint} (a sentence, or {@code null}) on what would serve it. */
    public static RequestRejectedException unknownModel(String model, String hint) {
        return new RequestRejectedException("The model `" + model + "` is not a route or a model any configured "
                + "connection serves." + (hint == null ? "" : " " + hint), 404, "invalid_request_error",
                "model_not_found", "model");
    }

    /**
     * 503 {@code no_provider_connected}: {@code model} is written {@code vendor/model} and no connection serves that
     * vendor's models. Retrying cannot help; a connection for the vendor can.
     */
    public static RequestRejectedException noProviderConnected(String model, String vendor) {
        return new RequestRejectedException("No configured connection serves " + vendor + "'s models, so `" + model
                + "` cannot be called; add a connection whose provider serves " + vendor + " (or list " + vendor
                + " in a connection's vendors).", 503, "service_unavailable_error", "no_provider_connected", "model");
    }
}
