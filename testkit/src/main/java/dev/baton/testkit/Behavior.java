package dev.baton.testkit;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * How the simulator answers one request: a reply, a provider error or a transport fault, optionally shaped in time.
 *
 * <p>Instances are immutable and thread-safe; every modifier returns a new instance.
 */
public final class Behavior {

    /** What the answer is, before timing and stream shaping. */
    sealed interface Outcome permits Reply, Raw, ProviderError, Fault {
    }

    /**
     * A successful answer: text, a tool call, or text followed by a tool call. Both null is {@link #ok()}'s greeting;
     * a tool call with null text has no text part at all.
     */
    record Reply(String text, ToolCall toolCall) implements Outcome {
        boolean isGreeting() {
            return text == null && toolCall == null;
        }
    }

    /** One function/tool call; {@code arguments} is the JSON object text exactly as given. */
    record ToolCall(String name, String arguments) {
    }

    /** A status and body written exactly as given. */
    record Raw(int status, String body) implements Outcome {
    }

    /**
     * A provider error as each dialect sends it; a null entry means the dialect has no equivalent and the simulator
     * answers with a 500 naming {@code factory} instead.
     */
    record ProviderError(String factory, ApiError openAi, ApiError anthropic, ApiError bedrock) implements Outcome {
        ProviderError(String factory, ApiError openAi, ApiError anthropic) {
            this(factory, openAi, anthropic, null);
        }

        ApiError in(WireFormat.Dialect dialect) {
            return switch (dialect) {
                case OPENAI, OPENAI_RESPONSES, OPENAI_EMBEDDINGS -> openAi;
                case ANTHROPIC -> anthropic;
                case BEDROCK -> bedrock != null ? bedrock : BedrockWire.errorFor(factory, openAi, anthropic);
                case VERTEX_ANTHROPIC -> GoogleErrors.vertexClaude(this);
                case VERTEX_OPENAI -> GoogleErrors.vertexOpenAi(this);
                case GEMINI_OPENAI -> GoogleErrors.geminiApi(this);
            };
        }
    }

    /**
     * One error in one dialect; the message may name the requested model, so it is computed per request. The wire
     * renders {@code retryAfter} (null: none) as its retry and rate-limit headers. The Anthropic wire ignores
     * {@code param} and renders a non-null {@code code} as {@code error.details.error_code}. The OpenAI wire renders a
     * null {@code type} as JSON null and adds the members of {@code extra} (null: none) to the error object, as Azure
     * OpenAI's {@code status} and {@code innererror}.
     */
    record ApiError(int status, String type, String code, String param, Function<String, String> message,
            Duration retryAfter, jakarta.json.JsonObject extra) {
        /** An error without extra fields. */
        ApiError(int status, String type, String code, String param, Function<String, String> message,
                Duration retryAfter) {
            this(status, type, code, param, message, retryAfter, null);
        }

        static ApiError of(int status, String type, String code, String param, String message) {
            return new ApiError(status, type, code, param, model -> message, null);
        }
    }

    enum Fault implements Outcome { NO_RESPONSE, RESET }

    static final Set<String> SPEND_LIMIT_CODES = Set.of("insufficient_quota", "credit_balance_exhausted",
            "organization_spend_limit_exceeded", "project_spend_limit_exceeded", "organization_usage_limit_exceeded");

    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

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
    private boolean usageChoicesNull;

    private Behavior(String name, Outcome outcome) {
        this.name = name;
        this.outcome = outcome;
    }

    /** An error both dialects send. */
    private static Behavior error(String name, String factory, ApiError openAi, ApiError anthropic) {
        return new Behavior(name, new ProviderError(factory, openAi, anthropic));
    }

    private static Behavior openAiOnly(String name, String factory, ApiError openAi) {
        return error(name, factory, openAi, null);
    }

    private static Behavior anthropicOnly(String name, String factory, ApiError anthropic) {
        return error(name, factory, null, anthropic);
    }

    private static ApiError openAi(int status, String type, String code, String param, String message) {
        return ApiError.of(status, type, code, param, message);
    }

    private static ApiError anthropic(int status, String type, String message) {
        return ApiError.of(status, type, null, null, message);
    }

    // ---------------------------------------------------------------- successes

    /** A successful completion whose text is {@code "Hello from <account>."}. */
    public static Behavior ok() {
        return new Behavior("ok", new Reply(null, null));
    }

    /** A successful completion with the given text; streamed word by word when the request asks for a stream. */
    public static Behavior reply(String text) {
        return new Behavior("reply", new Reply(Objects.requireNonNull(text, "text"), null));
    }

    /**
     * An answer that calls one tool and nothing else: OpenAI {@code tool_calls} with {@code finish_reason
     * "tool_calls"}, Anthropic a {@code tool_use} block with {@code stop_reason "tool_use"}. Streams send the
     * arguments in two or three fragments.
     *
     * @param name the function name, 1–64 letters, digits, {@code _} or {@code -}
     * @param jsonArguments the arguments as the text of a JSON object, e.g. {@code {"city":"Oslo"}}
     */
    public static Behavior toolCall(String name, String jsonArguments) {
        return new Behavior("tool_call", new Reply(null, tool(name, jsonArguments)));
    }

    /**
     * This reply's text followed by a call of one tool (OpenAI: {@code content} and {@code tool_calls}; Anthropic: a
     * text block, then a {@code tool_use} block). Only for {@link #reply(String)}; modifiers already applied are kept.
     */
    public Behavior thenToolCall(String name, String jsonArguments) {
        if (!(outcome instanceof Reply reply) || reply.text() == null || reply.toolCall() != null) {
            throw new IllegalStateException("thenToolCall applies to reply(text) only, not to " + this.name);
        }
        return copy("reply_then_tool_call", new Reply(reply.text(), tool(name, jsonArguments)));
    }

    private static ToolCall tool(String name, String jsonArguments) {
        if (name == null || !TOOL_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name must be 1-64 letters, digits, _ or -, was " + name);
        }
        if (jsonArguments == null || JsonSupport.parseObject(jsonArguments) == null) {
            throw new IllegalArgumentException("arguments must be the text of a JSON object, was " + jsonArguments);
        }
        return new ToolCall(name, jsonArguments);
    }

    // ---------------------------------------------------------------- errors

    /** Any status with any body on either wire; JSON content type when the body starts with '{'. */
    public static Behavior status(int status, String body) {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status must be between 200 and 599, was " + status);
        }
        return new Behavior("status", new Raw(status, Objects.requireNonNull(body, "body")));
    }

    /** OpenAI only: an error body {@code {"error":{message,type,param,code}}}; {@code code} may be null. */
    public static Behavior openAiError(int status, String type, String code, String message) {
        requireErrorStatus(status);
        return openAiOnly("openai_error", "openAiError()", openAi(status, Objects.requireNonNull(type, "type"), code,
                null, Objects.requireNonNull(message, "message")));
    }

    /** Anthropic only: an error body {@code {"type":"error","error":{type,message},"request_id"}}. */
    public static Behavior anthropicError(int status, String type, String message) {
        requireErrorStatus(status);
        return anthropicOnly("anthropic_error", "anthropicError()", anthropic(status,
                Objects.requireNonNull(type, "type"), Objects.requireNonNull(message, "message")));
    }

    /**
     * Amazon Bedrock only: an error with {@code status}, the exception name {@code exceptionType} (sent as
     * {@code x-amzn-ErrorType}, e.g. {@code ServiceQuotaExceededException}) and body {@code {"message": message}}.
     * Any other dialect answers the simulator's 500.
     */
    public static Behavior bedrockError(int status, String exceptionType, String message) {
        requireErrorStatus(status);
        return new Behavior("bedrock_error", new ProviderError("bedrockError()", null, null,
                ApiError.of(status, Objects.requireNonNull(exceptionType, "exceptionType"), null, null,
                        Objects.requireNonNull(message, "message"))));
    }

    private static void requireErrorStatus(int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status must be between 400 and 599, was " + status);
        }
    }

    /**
     * 429 with {@code retry-after} (whole seconds, rounded up). OpenAI: {@code rate_limit_exceeded}, plus
     * {@code retry-after-ms} and {@code x-ratelimit-*-requests}; Anthropic: {@code rate_limit_error}, plus
     * {@code anthropic-ratelimit-requests-*}.
     */
    public static Behavior rateLimited(Duration retryAfter) {
        if (retryAfter == null || retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative");
        }
        return rateLimit("rate_limited", " Please try again in " + goDuration(retryAfter) + ".", retryAfter);
    }

    /** 429 {@code rate_limit_exceeded} (OpenAI) or {@code rate_limit_error} (Anthropic) without any retry-after. */
    public static Behavior rateLimitedWithoutRetryAfter() {
        return rateLimit("rate_limited_no_retry_after", "", null);
    }

    private static Behavior rateLimit(String name, String advice, Duration retryAfter) {
        return error(name, name,
                new ApiError(429, "requests", "rate_limit_exceeded", null,
                        model -> "Rate limit reached for " + model + " in organization org-simulator on requests per"
                                + " min (RPM): Limit 60, Used 60, Requested 1." + advice
                                + " Visit https://platform.openai.com/account/rate-limits to learn more.",
                        retryAfter),
                new ApiError(429, "rate_limit_error", null, null,
                        model -> "This request would exceed the rate limit for your organization of 50 requests per"
                                + " minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can"
                                + " see the response headers for current usage. Please reduce the prompt length or"
                                + " the maximum tokens requested, or try again later.",
                        retryAfter));
    }

    /** OpenAI only: 429 {@code rate_limit_error}/{@code slow_down}: the account ramped up too fast. */
    public static Behavior slowDown() {
        return openAiOnly("slow_down", "slowDown()", openAi(429, "rate_limit_error", "slow_down", null,
                "Please reduce your rate of requests and try again later."));
    }

    /**
     * OpenAI only: 429 {@code insufficient_quota} with one of the spend-limit codes; no retry-after, retrying does
     * not help.
     */
    public static Behavior spendLimit(String code) {
        if (!SPEND_LIMIT_CODES.contains(code)) {
            throw new IllegalArgumentException("code must be one of " + SPEND_LIMIT_CODES + ", was " + code);
        }
        return openAiOnly("spend_limit", "spendLimit()", openAi(429, "insufficient_quota", code, null,
                "You exceeded your current quota, please check your plan and billing details. For more information"
                        + " on this error, read the docs:"
                        + " https://platform.openai.com/docs/guides/error-codes/api-errors."));
    }

    /** Anthropic only: 402 {@code billing_error}: the credit balance ran out. */
    public static Behavior billingError() {
        return anthropicOnly("billing_error", "billingError()", anthropic(402, "billing_error",
                "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade"
                        + " or purchase credits."));
    }

    /**
     * Anthropic only: 429 {@code rate_limit_error} with {@code error.details.error_code
     * "enforced_spend_limit_reached"} and no retry-after: the tier's monthly spend cap, not a rate window.
     */
    public static Behavior enforcedSpendLimit() {
        return anthropicOnly("enforced_spend_limit", "enforcedSpendLimit()", ApiError.of(429, "rate_limit_error",
                "enforced_spend_limit_reached", null,
                "You have reached your organization's monthly spend limit for your usage tier. Your access will be"
                        + " restored at the start of next month, or you can raise your limit in the Console."));
    }

    /**
     * Anthropic only: 400 {@code invalid_request_error} "You have reached your specified API usage limits. You will
     * regain access on …" (the first day of next month): a spend limit the organisation set itself.
     */
    public static Behavior usageLimitReached() {
        return anthropicOnly("usage_limit_reached", "usageLimitReached()", new ApiError(400, "invalid_request_error",
                null, null, model -> "You have reached your specified API usage limits. You will regain access on "
                        + firstOfNextMonth() + " at 00:00 UTC.", null));
    }

    /**
     * Anthropic only: 400 {@code invalid_request_error} "You have reached your specified workspace API usage limits.
     * You will regain access on …": the limit an organisation set on one workspace.
     */
    public static Behavior workspaceUsageLimitReached() {
        return anthropicOnly("workspace_usage_limit_reached", "workspaceUsageLimitReached()", new ApiError(400,
                "invalid_request_error", null, null, model -> "You have reached your specified workspace API usage"
                        + " limits. You will regain access on " + firstOfNextMonth() + " at 00:00 UTC.", null));
    }

    private static LocalDate firstOfNextMonth() {
        return LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1).plusMonths(1);
    }

    /** 503 {@code service_unavailable_error}/{@code server_is_overloaded} (OpenAI); 529 {@code overloaded_error}. */
    public static Behavior overloaded() {
        return error("overloaded", "overloaded()", openAi(503, "service_unavailable_error", "server_is_overloaded",
                null, "That model is currently overloaded with other requests. You can retry your request, or"
                        + " contact us through our help center at help.openai.com if the error persists."),
                anthropic(529, "overloaded_error", "Overloaded"));
    }

    /** 500 {@code server_error} (OpenAI) or {@code api_error} (Anthropic). */
    public static Behavior serverError() {
        return error("server_error", "serverError()", openAi(500, "server_error", null, null,
                        "The server had an error while processing your request. Sorry about that!"),
                anthropic(500, "api_error", "Internal server error"));
    }

    /** 502 with the HTML page a proxy in front of the provider sends, on either wire. */
    public static Behavior badGateway() {
        return new Behavior("bad_gateway", new Raw(502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n"
                + "<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
                + "</body>\r\n</html>\r\n"));
    }

    /** 504 {@code server_error} (OpenAI) or {@code timeout_error} (Anthropic): the model took too long. */
    public static Behavior gatewayTimeout() {
        return error("gateway_timeout", "gatewayTimeout()", openAi(504, "server_error", null, null,
                        "Gateway timeout. The model took too long to respond."),
                anthropic(504, "timeout_error", "Request timed out"));
    }

    /**
     * 400 {@code invalid_request_error}; {@code param} may be null. Anthropic has no param field and prefixes the
     * message with it instead, as in {@code "temperature: Input should be less than or equal to 1"}.
     */
    public static Behavior invalidRequest(String message, String param) {
        Objects.requireNonNull(message, "message");
        return error("invalid_request", "invalidRequest()", openAi(400, "invalid_request_error", null, param, message),
                anthropic(400, "invalid_request_error", param == null ? message : param + ": " + message));
    }

    /** 400 {@code context_length_exceeded} on {@code messages} (OpenAI); "prompt is too long: …" (Anthropic). */
    public static Behavior contextLengthExceeded() {
        return error("context_length_exceeded", "contextLengthExceeded()", openAi(400, "invalid_request_error",
                        "context_length_exceeded", "messages", "This model's maximum context length is 128000 tokens."
                                + " However, your messages resulted in 131072 tokens. Please reduce the length of the"
                                + " messages."),
                anthropic(400, "invalid_request_error", "prompt is too long: 212480 tokens > 200000 maximum"));
    }

    /** OpenAI only: 400 {@code content_policy_violation}. */
    public static Behavior contentPolicyViolation() {
        return openAiOnly("content_policy_violation", "contentPolicyViolation()", openAi(400, "invalid_request_error",
                "content_policy_violation", null, "Your request was rejected as a result of our safety system."));
    }

    /**
     * OpenAI wire only (OpenAI and Azure OpenAI paths): Azure OpenAI's 400 for a prompt its content filter refused,
     * {@code {"error":{"message":…,"type":null,"param":"prompt","code":"content_filter","status":400,
     * "innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_results":{…}}}}}.
     */
    public static Behavior azureContentFilter() {
        var filtered = JsonSupport.JSON.createObjectBuilder()
                .add("hate", JsonSupport.JSON.createObjectBuilder().add("filtered", true).add("severity", "high"))
                .add("self_harm", JsonSupport.JSON.createObjectBuilder().add("filtered", false).add("severity", "safe"))
                .add("sexual", JsonSupport.JSON.createObjectBuilder().add("filtered", false).add("severity", "safe"))
                .add("violence", JsonSupport.JSON.createObjectBuilder().add("filtered", true).add("severity", "medium"));
        var extra = JsonSupport.JSON.createObjectBuilder().add("status", 400).add("innererror",
                JsonSupport.JSON.createObjectBuilder().add("code", "ResponsibleAIPolicyViolation")
                        .add("content_filter_results", filtered)).build();
        return openAiOnly("azure_content_filter", "azureContentFilter()", new ApiError(400, null, "content_filter",
                "prompt", model -> "The response was filtered due to the prompt triggering Azure OpenAI's content"
                        + " management policy. Please modify your prompt and retry. To learn more about our content"
                        + " filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
                null, extra));
    }

    /** 401 {@code invalid_api_key} (OpenAI) or {@code authentication_error} (Anthropic). */
    public static Behavior unauthorized() {
        return error("unauthorized", "unauthorized()", openAi(401, "invalid_request_error", "invalid_api_key", null,
                        "Incorrect API key provided: sk-proj-****...abcd. You can find your API key at"
                                + " https://platform.openai.com/account/api-keys."),
                anthropic(401, "authentication_error", "invalid x-api-key"));
    }

    /** 403 {@code unsupported_country_region_territory} (OpenAI) or {@code permission_error} (Anthropic). */
    public static Behavior forbidden() {
        return error("forbidden", "forbidden()", openAi(403, "request_forbidden",
                        "unsupported_country_region_territory", null, "Country, region, or territory not supported"),
                anthropic(403, "permission_error",
                        "Your API key does not have permission to use the specified resource."));
    }

    /** 404 {@code model_not_found} (OpenAI) or {@code not_found_error} (Anthropic) naming the requested model. */
    public static Behavior modelNotFound() {
        return error("model_not_found", "modelNotFound()",
                new ApiError(404, "invalid_request_error", "model_not_found", null,
                        model -> "The model `" + model + "` does not exist or you do not have access to it.", null),
                new ApiError(404, "not_found_error", null, null, model -> "model: " + model, null));
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

    /**
     * Streams only: the events before the first output go out at once (OpenAI: the role chunk; Anthropic:
     * {@code message_start}, {@code content_block_start} and {@code ping}), the first output event after this delay.
     */
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

    /** Streams only: after this many events, drop the connection without finishing the chunked body. */
    public Behavior cutAfter(int events) {
        Behavior b = copy();
        b.cutAfter = count(events, "cutAfter");
        return b;
    }

    /** Streams only: after this many events, send nothing more and hold the connection until the client closes. */
    public Behavior stallAfter(int events) {
        Behavior b = copy();
        b.stallAfter = count(events, "stallAfter");
        return b;
    }

    /** Streams only: after this many events, insert one event whose data is not JSON, then continue. */
    public Behavior malformedEventAfter(int events) {
        Behavior b = copy();
        b.malformedAfter = count(events, "malformedEventAfter");
        return b;
    }

    /**
     * Streams only: after this many events, send an error event and end the stream without {@code [DONE]} or
     * {@code message_stop}. OpenAI: {@code data: {"error":{message,type,param,code}}}; Anthropic: {@code event: error}
     * with {@code {"type":"error","error":{type,message}}} ({@code code}, if not null, as
     * {@code error.details.error_code}).
     */
    public Behavior streamErrorAfter(int events, String type, String code, String message) {
        Behavior b = copy();
        b.streamErrorAfter = count(events, "streamErrorAfter");
        b.streamError = ApiError.of(200, Objects.requireNonNull(type, "type"), code, null,
                Objects.requireNonNull(message, "message"));
        return b;
    }

    /**
     * Streams only: a complete stream that omits its terminator: OpenAI {@code data: [DONE]} (the finish_reason chunk
     * is sent), Anthropic {@code message_stop} (the {@code message_delta} with the stop_reason is sent).
     */
    public Behavior withoutDone() {
        Behavior b = copy();
        b.withoutDone = true;
        return b;
    }

    /**
     * Streams only, OpenAI wire: the usage chunk (sent when the request asks {@code stream_options.include_usage})
     * carries {@code "choices": null} instead of {@code []}, as vLLM and some other OpenAI-compatible hosts send it.
     */
    public Behavior usageChoicesNull() {
        Behavior b = copy();
        b.usageChoicesNull = true;
        return b;
    }

    // ---------------------------------------------------------------- package-private view

    boolean nullsUsageChoices() {
        return usageChoicesNull;
    }

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

    /** The pause before an event that is not the first; the first output event may wait longer. */
    Duration pauseBefore(boolean firstOutput) {
        return firstOutput && firstTokenDelay != null ? firstTokenDelay : eventInterval;
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
        if (usageChoicesNull) {
            parts.add("usageChoicesNull()");
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
        return copy(name, outcome);
    }

    private Behavior copy(String newName, Outcome newOutcome) {
        Behavior b = new Behavior(newName, newOutcome);
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
        b.usageChoicesNull = usageChoicesNull;
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
