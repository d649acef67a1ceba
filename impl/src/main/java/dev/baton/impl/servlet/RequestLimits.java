package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.util.List;

/**
 * Refuses, before any provider is called, what no provider should be billed for: {@code n} above
 * {@code baton.endpoint.limits.max-n}, a {@code max_tokens}, {@code max_completion_tokens} or {@code max_output_tokens}
 * (Responses API) that is not a whole
 * number from 1 to {@code baton.endpoint.limits.max-output-tokens} (400 {@code invalid_request_error} naming the
 * {@code param}), and a {@code model} or {@code fallbacks} entry longer than every configured model and route name,
 * which names nothing and is repeated only in part. The first step of the {@link Gateway}: the steps after it repeat
 * the model name in their refusals. Immutable, thread-safe.
 */
final class RequestLimits implements GatewayStep {

    /** The longest part of an over-long model name that a refusal repeats. */
    static final int MAX_ECHOED_CHARS = 64;
    private static final List<String> TOKEN_LIMITS = List.of("max_tokens", "max_completion_tokens", "max_output_tokens");

    private final int maxN;
    private final BigDecimal maxOutputTokens;
    private final int longestName;

    RequestLimits(int maxN, long maxOutputTokens, BatonConfig config) {
        this.maxN = maxN;
        this.maxOutputTokens = BigDecimal.valueOf(maxOutputTokens);
        int longest = config.routes().keySet().stream().mapToInt(String::length).max().orElse(0);
        for (ConnectionConfig c : config.connections()) {
            longest = Math.max(longest, c.modelIds().keySet().stream().mapToInt(String::length).max().orElse(0));
        }
        this.longestName = longest;
    }

    /** The limits of {@code settings}, for the names of {@code config}. */
    static RequestLimits of(EndpointSettings settings, BatonConfig config) {
        return new RequestLimits(settings.maxN(), settings.maxOutputTokens(), config);
    }

    @Override
    public Reply handle(GatewayCall call, Next next) {
        try {
            check(call.request().body(), call.request().fallbacks());
        } catch (RequestRejectedException e) {
            return Reply.Answered.now(Responses.failure(e, call.refusalId()));
        }
        return next.proceed(call);
    }

    /** @throws RequestRejectedException 400 naming the first member at fault */
    void check(JsonObject body, List<String> fallbacks) {
        if (body.get("model") instanceof JsonString model) {
            checkName(model.getString(), "model");
        }
        for (int i = 0; i < fallbacks.size(); i++) {
            checkName(fallbacks.get(i), "fallbacks[" + i + "]");
        }
        JsonValue n = body.get("n");
        if (n != null && n != JsonValue.NULL && !wholeNumberUpTo(n, BigDecimal.valueOf(maxN))) {
            throw invalid("`n` must be a whole number from 1 to " + maxN + " (this endpoint's limit) but was "
                    + shown(n) + ".", "n");
        }
        for (String member : TOKEN_LIMITS) {
            JsonValue limit = body.get(member);
            if (limit != null && limit != JsonValue.NULL && !wholeNumberUpTo(limit, maxOutputTokens)) {
                throw invalid("`" + member + "` must be a whole number from 1 to " + maxOutputTokens.toPlainString()
                        + " but was " + shown(limit) + ".", member);
            }
        }
    }

    /**
     * A name longer than every configured one names nothing: refused as unknown, with the status and code of any
     * unknown model or fallback (404 {@code model_not_found}, 400 {@code unknown_fallback_model}), so that a client
     * handling those need not tell the two apart. Only its first {@value #MAX_ECHOED_CHARS} characters are repeated.
     */
    private void checkName(String name, String param) {
        if (name.length() <= longestName) {
            return;
        }
        String what = "`" + Rejections.shortened(name, MAX_ECHOED_CHARS) + "` (" + name.length()
                + " characters) is longer than any configured model or route name (at most " + longestName
                + "), so it names none.";
        throw param.equals("model")
                ? new RequestRejectedException("The model " + what, 404, "invalid_request_error", "model_not_found",
                        "model")
                : RequestRejectedException.unknownFallbacks(List.of(param + ": " + what));
    }

    /** Compared as decimals: {@code 1e999999999} is never turned into the integer it names. */
    private static boolean wholeNumberUpTo(JsonValue value, BigDecimal max) {
        return value instanceof JsonNumber number && number.isIntegral()
                && number.bigDecimalValue().signum() > 0 && number.bigDecimalValue().compareTo(max) <= 0;
    }

    /** The value as the refusal repeats it: a number or a literal as sent (bounded), else its JSON type. */
    private static String shown(JsonValue value) {
        return switch (value.getValueType()) {
            case NUMBER, TRUE, FALSE -> Rejections.shortened(value.toString(), 32);
            case STRING -> "a string";
            case ARRAY -> "an array";
            default -> "an object";
        };
    }

    private static RequestRejectedException invalid(String message, String param) {
        return RequestRejectedException.invalidRequest(message, param);
    }
}
