package dev.baton.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * How the simulator answers one request: a reply, a provider error or a transport fault, optionally shaped in time.
 *
 * <p>Instances are immutable and thread-safe; every modifier returns a new instance.
 */
public final class Behavior {

    /** What the answer is, before timing and stream shaping. */
    sealed interface Outcome permits Reply, Raw, ApiError, Fault {
    }

    /** A successful completion; a null text means the default greeting naming the account. */
    record Reply(String text) implements Outcome {
    }

    /** A status and body written exactly as given. */
    record Raw(int status, String body) implements Outcome {
    }

    /** A provider error; the message may name the requested model, so it is computed per request. */
    record ApiError(int status, String type, String code, String param, Function<String, String> message)
            implements Outcome {
        static ApiError of(int status, String type, String code, String param, String message) {
            return new ApiError(status, type, code, param, model -> message);
        }
    }

    enum Fault implements Outcome { NO_RESPONSE, RESET }

    static final Set<String> SPEND_LIMIT_CODES = Set.of("insufficient_quota", "credit_balance_exhausted",
            "organization_spend_limit_exceeded", "project_spend_limit_exceeded", "organization_usage_limit_exceeded");

    private final String name;
    private final Outcome outcome;
    // Written only by copy() callers before the new instance escapes, which keeps instances effectively immutable.
    private Map<String, String> headers = Map.of();
    private Duration delay = Duration.ZERO;
    private Duration firstTokenDelay;
    private Duration eventInterval = Duration.ZERO;
    private int cutAfter = -1;
    private int stallAfter = -1;
    private int malformedAfter = -1;
    private int streamErrorAfter = -1;
    private ApiError streamError;
    private boolean withoutDone;

    private Behavior(String name, Outcome outcome) {
        this.name = name;
        this.outcome = outcome;
    }

    private static Behavior error(String name, int status, String type, String code, String param, String message) {
        return new Behavior(name, ApiError.of(status, type, code, param, message));
    }

    // ---------------------------------------------------------------- successes

    /** A successful completion whose text is {@code "Hello from <account>."}. */
    public static Behavior ok() {
        return new Behavior("ok", new Reply(null));
    }

    /** A successful completion with the given text; streamed word by word when the request asks for a stream. */
    public static Behavior reply(String text) {
        return new Behavior("reply", new Reply(Objects.requireNonNull(text, "text")));
    }

    // ---------------------------------------------------------------- errors

    /** Any status with any body; JSON content type when the body starts with '{'. */
    public static Behavior status(int status, String body) {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status must be between 200 and 599, was " + status);
        }
        return new Behavior("status", new Raw(status, Objects.requireNonNull(body, "body")));
    }

    /** An OpenAI-shaped error body {@code {"error":{message,type,param,code}}}; {@code code} may be null. */
    public static Behavior openAiError(int status, String type, String code, String message) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status must be between 400 and 599, was " + status);
        }
        return error("openai_error", status, Objects.requireNonNull(type, "type"), code, null,
                Objects.requireNonNull(message, "message"));
    }

    /**
     * 429 {@code rate_limit_exceeded} with {@code retry-after} (whole seconds, rounded up) and {@code retry-after-ms}.
     */
    public static Behavior rateLimited(Duration retryAfter) {
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative");
        }
        long millis = retryAfter.toMillis();
        Behavior b = rateLimit("rate_limited", " Please try again in " + goDuration(retryAfter) + ".");
        b.headers = Map.of(
                "retry-after", Long.toString((millis + 999) / 1000),
                "retry-after-ms", Long.toString(millis),
                "x-ratelimit-limit-requests", "60",
                "x-ratelimit-remaining-requests", "0",
                "x-ratelimit-reset-requests", goDuration(retryAfter));
        return b;
    }

    /** 429 {@code rate_limit_exceeded} without any retry-after header. */
    public static Behavior rateLimitedWithoutRetryAfter() {
        return rateLimit("rate_limited_no_retry_after", "");
    }

    private static Behavior rateLimit(String name, String advice) {
        return new Behavior(name, new ApiError(429, "requests", "rate_limit_exceeded", null,
                model -> "Rate limit reached for " + model + " in organization org-simulator on requests per min (RPM):"
                        + " Limit 60, Used 60, Requested 1." + advice
                        + " Visit https://platform.openai.com/account/rate-limits to learn more."));
    }

    /** 429 {@code rate_limit_error}/{@code slow_down}: the account ramped up too fast. */
    public static Behavior slowDown() {
        return error("slow_down", 429, "rate_limit_error", "slow_down", null,
                "Please reduce your rate of requests and try again later.");
    }

    /** 429 {@code insufficient_quota} with one of the spend-limit codes; no retry-after, retrying does not help. */
    public static Behavior spendLimit(String code) {
        if (!SPEND_LIMIT_CODES.contains(code)) {
            throw new IllegalArgumentException("code must be one of " + SPEND_LIMIT_CODES + ", was " + code);
        }
        return error("spend_limit", 429, "insufficient_quota", code, null,
                "You exceeded your current quota, please check your plan and billing details. For more information"
                        + " on this error, read the docs:"
                        + " https://platform.openai.com/docs/guides/error-codes/api-errors.");
    }

    /** 503 {@code service_unavailable_error}/{@code server_is_overloaded}. */
    public static Behavior overloaded() {
        return error("overloaded", 503, "service_unavailable_error", "server_is_overloaded", null,
                "That model is currently overloaded with other requests. You can retry your request, or contact us"
                        + " through our help center at help.openai.com if the error persists.");
    }

    /** 500 {@code server_error}. */
    public static Behavior serverError() {
        return error("server_error", 500, "server_error", null, null,
                "The server had an error while processing your request. Sorry about that!");
    }

    /** 502 with the HTML page a proxy in front of the provider sends. */
    public static Behavior badGateway() {
        return new Behavior("bad_gateway", new Raw(502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n"
                + "<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
                + "</body>\r\n</html>\r\n"));
    }

    /** 504 {@code server_error}: the provider gave up waiting for the model. */
    public static Behavior gatewayTimeout() {
        return error("gateway_timeout", 504, "server_error", null, null,
                "Gateway timeout. The model took too long to respond.");
    }

    /** 400 {@code invalid_request_error}; {@code param} may be null. */
    public static Behavior invalidRequest(String message, String param) {
        return error("invalid_request", 400, "invalid_request_error", null, param,
                Objects.requireNonNull(message, "message"));
    }

    /** 400 {@code context_length_exceeded} on {@code messages}. */
    public static Behavior contextLengthExceeded() {
        return error("context_length_exceeded", 400, "invalid_request_error", "context_length_exceeded", "messages",
                "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072"
                        + " tokens. Please reduce the length of the messages.");
    }

    /** 400 {@code content_policy_violation}. */
    public static Behavior contentPolicyViolation() {
        return error("content_policy_violation", 400, "invalid_request_error", "content_policy_violation", null,
                "Your request was rejected as a result of our safety system.");
    }

    /** 401 {@code invalid_api_key}. */
    public static Behavior unauthorized() {
        return error("unauthorized", 401, "invalid_request_error", "invalid_api_key", null,
                "Incorrect API key provided: sk-proj-****...abcd. You can find your API key at"
                        + " https://platform.openai.com/account/api-keys.");
    }

    /** 403 {@code unsupported_country_region_territory}. */
    public static Behavior forbidden() {
        return error("forbidden", 403, "request_forbidden", "unsupported_country_region_territory", null,
                "Country, region, or territory not supported");
    }

    /** 404 {@code model_not_found}; the message names the requested model. */
    public static Behavior modelNotFound() {
        return new Behavior("model_not_found", new ApiError(404, "invalid_request_error", "model_not_found", null,
                model -> "The model `" + model + "` does not exist or you do not have access to it."));
    }

    // ---------------------------------------------------------------- transport faults

    /** Reads the request and never answers, until the client or the simulator closes the connection. */
    public static Behavior noResponse() {
        return new Behavior("no_response", Fault.NO_RESPONSE);
    }

    /** Reads the request, then resets the TCP connection before any response byte. */
    public static Behavior resetBeforeHeaders() {
        return new Behavior("reset", Fault.RESET);
    }

    // ---------------------------------------------------------------- modifiers

    /** Adds a response header, replacing one of the same name (case-insensitive). */
    public Behavior withHeader(String name, String value) {
        Objects.requireNonNull(value, "value");
        if (name == null || !name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw new IllegalArgumentException("not a header name: " + name);
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("header value must not contain CR or LF");
        }
        Behavior b = copy();
        Map<String, String> merged = new LinkedHashMap<>(headers);
        merged.put(name.toLowerCase(Locale.ROOT), value);
        b.headers = Map.copyOf(merged);
        return b;
    }

    /** Waits this long before the status line (or before the fault). */
    public Behavior afterDelay(Duration delay) {
        Behavior b = copy();
        b.delay = nonNegative(delay, "delay");
        return b;
    }

    /** Streams only: the role chunk goes out at once, the next event after this delay. */
    public Behavior firstTokenDelay(Duration delay) {
        Behavior b = copy();
        b.firstTokenDelay = nonNegative(delay, "firstTokenDelay");
        return b;
    }

    /** Streams only: pause between consecutive events. */
    public Behavior eventInterval(Duration interval) {
        Behavior b = copy();
        b.eventInterval = nonNegative(interval, "eventInterval");
        return b;
    }

    /** Streams only: after this many data events, drop the connection without finishing the chunked body. */
    public Behavior cutAfter(int events) {
        Behavior b = copy();
        b.cutAfter = count(events, "cutAfter");
        return b;
    }

    /** Streams only: after this many data events, send nothing more and hold the connection until the client closes. */
    public Behavior stallAfter(int events) {
        Behavior b = copy();
        b.stallAfter = count(events, "stallAfter");
        return b;
    }

    /** Streams only: after this many data events, insert one data line that is not JSON, then continue. */
    public Behavior malformedEventAfter(int events) {
        Behavior b = copy();
        b.malformedAfter = count(events, "malformedEventAfter");
        return b;
    }

    /** Streams only: after this many data events, send an error event and end the stream without [DONE]. */
    public Behavior streamErrorAfter(int events, String type, String code, String message) {
        Behavior b = copy();
        b.streamErrorAfter = count(events, "streamErrorAfter");
        b.streamError = ApiError.of(200, Objects.requireNonNull(type, "type"), code, null,
                Objects.requireNonNull(message, "message"));
        return b;
    }

    /** Streams only: a complete stream, finish_reason included, that omits {@code data: [DONE]}. */
    public Behavior withoutDone() {
        Behavior b = copy();
        b.withoutDone = true;
        return b;
    }

    // ---------------------------------------------------------------- package-private view

    String name() {
        return name;
    }

    Outcome outcome() {
        return outcome;
    }

    Map<String, String> headers() {
        return headers;
    }

    Duration delay() {
        return delay;
    }

    /** The pause before the event after {@code sent} events; the first token delay follows the role chunk. */
    Duration pauseAfter(int sent) {
        return sent == 1 && firstTokenDelay != null ? firstTokenDelay : eventInterval;
    }

    int cutAfter() {
        return cutAfter;
    }

    int stallAfter() {
        return stallAfter;
    }

    int malformedAfter() {
        return malformedAfter;
    }

    int streamErrorAfter() {
        return streamErrorAfter;
    }

    ApiError streamError() {
        return streamError;
    }

    boolean omitsDone() {
        return withoutDone;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        parts.add(name);
        if (!delay.isZero()) {
            parts.add("afterDelay(" + delay + ")");
        }
        if (firstTokenDelay != null) {
            parts.add("firstTokenDelay(" + firstTokenDelay + ")");
        }
        if (!eventInterval.isZero()) {
            parts.add("eventInterval(" + eventInterval + ")");
        }
        addIfSet(parts, "cutAfter", cutAfter);
        addIfSet(parts, "stallAfter", stallAfter);
        addIfSet(parts, "malformedEventAfter", malformedAfter);
        addIfSet(parts, "streamErrorAfter", streamErrorAfter);
        if (withoutDone) {
            parts.add("withoutDone()");
        }
        headers.forEach((k, v) -> parts.add("withHeader(" + k + ")"));
        return String.join(".", parts);
    }

    private static void addIfSet(List<String> parts, String modifier, int events) {
        if (events >= 0) {
            parts.add(modifier + "(" + events + ")");
        }
    }

    private Behavior copy() {
        Behavior b = new Behavior(name, outcome);
        b.headers = headers;
        b.delay = delay;
        b.firstTokenDelay = firstTokenDelay;
        b.eventInterval = eventInterval;
        b.cutAfter = cutAfter;
        b.stallAfter = stallAfter;
        b.malformedAfter = malformedAfter;
        b.streamErrorAfter = streamErrorAfter;
        b.streamError = streamError;
        b.withoutDone = withoutDone;
        return b;
    }

    private static Duration nonNegative(Duration d, String what) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be a non-negative duration, was " + d);
        }
        return d;
    }

    private static int count(int events, String what) {
        if (events < 0) {
            throw new IllegalArgumentException(what + " needs a non-negative event count, was " + events);
        }
        return events;
    }

    /** Formats like Go's time.Duration.String(), as OpenAI's x-ratelimit-reset-* headers do: 12ms, 1.5s, 6m0s. */
    static String goDuration(Duration d) {
        long millis = d.toMillis();
        if (millis < 1000) {
            return millis + "ms";
        }
        long hours = millis / 3_600_000;
        long minutes = millis / 60_000 % 60;
        long secMillis = millis % 60_000;
        String seconds = secMillis % 1000 == 0 ? Long.toString(secMillis / 1000)
                : java.math.BigDecimal.valueOf(secMillis, 3).stripTrailingZeros().toPlainString();
        if (hours > 0) {
            return hours + "h" + minutes + "m" + seconds + "s";
        }
        return minutes > 0 ? minutes + "m" + seconds + "s" : seconds + "s";
    }
}
