package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;

/** The endpoint's own refusals, which only an HTTP caller can meet. */
final class Rejections {

    private Rejections() {
    }

    /** 404: no such endpoint or record. */
    static RequestRejectedException notFound(String message) {
        return new RequestRejectedException(message, 404, "invalid_request_error", "not_found", null);
    }

    /** 408: the body did not arrive in time. */
    static RequestRejectedException bodyTimeout(String message) {
        return new RequestRejectedException(message, 408, "invalid_request_error", "request_timeout", null);
    }

    /** 413: the body, or a part of it, is larger than the configured limit. */
    static RequestRejectedException tooLarge(String message) {
        return new RequestRejectedException(message, 413, "invalid_request_error", "request_too_large", null);
    }

    /** 401: the caller's gateway key is missing or wrong. */
    static RequestRejectedException unauthorized(String message) {
        return new RequestRejectedException(message, 401, "authentication_error", "invalid_api_key", null);
    }

    /** 403: the caller may not use this model or route. */
    static RequestRejectedException modelNotAllowed(String model) {
        return new RequestRejectedException("This key may not use the model `" + model + "`.", 403,
                "permission_error", "model_not_allowed", "model");
    }

    /** 400: a header the endpoint reads has a value it cannot take. */
    static RequestRejectedException badHeader(String header, String message) {
        return new RequestRejectedException(message, 400, "invalid_request_error", "invalid_request", header);
    }

    /** 400: a stream cannot be replayed, so it cannot carry an idempotency key. */
    static RequestRejectedException streamWithIdempotencyKey() {
        return badHeader(Idempotency.HEADER, "A streaming request cannot carry an Idempotency-Key: a stream cannot be "
                + "replayed once consumed. Send it without the header, or set \"stream\": false.");
    }

    /** 422: the idempotency key came before with another body. */
    static RequestRejectedException idempotencyKeyReused() {
        return new RequestRejectedException("This Idempotency-Key was already used with a different request body; "
                + "send a new key for a new request.", 422, "invalid_request_error", "idempotency_key_reused",
                Idempotency.HEADER);
    }

    /**
     * {@code text} as a refusal may repeat it: at most {@code max} characters, then "…", with control and format
     * characters (line breaks, bidi overrides) shown as '?'. What a caller sent is never echoed whole.
     */
    static String shortened(String text, int max) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(max).forEach(c -> {
            int type = Character.getType(c);
            out.appendCodePoint(Character.isISOControl(c) || type == Character.FORMAT || type == Character.SURROGATE
                    || type == Character.PRIVATE_USE || type == Character.UNASSIGNED ? '?' : c);
        });
        return text.codePointCount(0, text.length()) > max ? out.append('…').toString() : out.toString();
    }
}
