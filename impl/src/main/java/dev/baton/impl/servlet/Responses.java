package dev.baton.impl.servlet;

import dev.baton.ChatResponse;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.impl.log.RateLimitedLog;
import dev.baton.wire.OpenAiShape;
import dev.baton.wire.RawJsonObject;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Status lines and headers of the endpoint's answers, in one place so every path says the same. */
final class Responses {

    private static final System.Logger LOG = System.getLogger(Responses.class.getName());
    /** Hostile input that finds a new way to break would otherwise fill the log at the attacker's pace. */
    private static final RateLimitedLog UNEXPECTED = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
    private static final String BUDGET_EXCEEDED = "budget_exceeded";
    /** When a budget that refused a request (402 {@code budget_exceeded}) is whole again. */
    static final String BUDGET_RESET = "x-baton-budget-reset";
    /** Bounded by the configuration: a model, provider, connection, position and route name each. */
    private static final Map<ServedBy, JsonObject> SERVED_BY_MEMBERS = new ConcurrentHashMap<>();

    private Responses() {
    }

    /** Headers of a success: the request id and what served, for JSON and streams alike. */
    static void servedBy(HttpServletResponse resp, ServedBy by, String requestId) {
        servedBy(by, requestId).forEach(resp::setHeader);
    }

    private static Map<String, String> servedBy(ServedBy by, String requestId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-request-id", requestId);
        headers.put("x-baton-model", by.model());
        headers.put("x-baton-provider", by.provider());
        headers.put("x-baton-connection", by.connection());
        headers.put("x-baton-route", by.position());
        if (by.routeName() != null) {
            headers.put("x-baton-route-name", by.routeName());
        }
        return headers;
    }

    /** A served answer; a degraded one has {@code x-baton-degraded: true} instead of served-by headers. */
    static Answer success(ChatResponse answer) {
        Map<String, String> headers;
        if (answer.degraded()) {
            headers = new LinkedHashMap<>();
            headers.put("x-request-id", answer.requestId());
            headers.put("x-baton-degraded", "true");
        } else {
            headers = servedBy(answer.servedBy(), answer.requestId());
        }
        return new Answer(200, headers, body(answer));
    }

    /**
     * {@link ChatResponse#toJson()}, written without building it when the provider's body came as it is: the served-by
     * members, and the cost members inside {@code usage}, are put into its text.
     */
    static byte[] body(ChatResponse answer) {
        if (answer.degraded() || !(answer.body() instanceof RawJsonObject raw)) {
            return bytes(answer.toJson());
        }
        return OpenAiShape.withCost(raw, servedByMembers(answer.servedBy()), answer.cost())
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The served-by members exactly as {@link ChatResponse#toJson()} writes them, and nothing else; one object per
     * target of the configuration, built the first time it serves.
     */
    private static JsonObject servedByMembers(ServedBy by) {
        return SERVED_BY_MEMBERS.computeIfAbsent(by, b -> new ChatResponse(JsonValue.EMPTY_JSON_OBJECT, b, "", null,
                null).toJson());
    }

    /**
     * The answer for a failure. {@code x-should-retry} tells the official SDKs whether to retry:
     * only when a retry can help, so they do not multiply attempts Baton already made; and then not
     * before {@code retry-after} (whole seconds, rounded up) or {@code retry-after-ms}, which the
     * OpenAI SDKs read first.
     */
    static Answer failure(Throwable error, String fallbackId) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (!(error instanceof FailoverException e)) {
            UNEXPECTED.error(n -> "request " + fallbackId + " failed unexpectedly"
                    + (n > 1 ? " (" + n + " unexpected failures since the last message)" : ""), error);
            headers.put("x-request-id", fallbackId);
            headers.put("x-should-retry", "false");
            return new Answer(500, headers, bytes(Json.error("Internal error in request " + fallbackId + ".",
                    "server_error", "internal_error", null)));
        }
        headers.put("x-request-id", e.requestId().orElse(fallbackId));
        headers.put("x-should-retry", Boolean.toString(e.retryable()));
        e.retryAfter().ifPresent(d -> {
            long millis = Math.max(1, d.toMillis());
            headers.put("retry-after", Long.toString((millis + 999) / 1000));
            headers.put("retry-after-ms", Long.toString(millis));
            if (BUDGET_EXCEEDED.equals(e.code())) {
                // A budget resets on a whole second, and the wait was measured a moment ago: truncating recovers it.
                headers.put(BUDGET_RESET, Instant.now().plus(d).truncatedTo(ChronoUnit.SECONDS).toString());
            }
        });
        return new Answer(e.httpStatus(), headers, bytes(Json.error(e)));
    }

    /** The last-resort answer when the async timeout ends a request nothing else ended. */
    static Answer timedOut(Duration after, String requestId) {
        return refusal(504, "server_error", "timeout", null, "The request was not answered within "
                + after.toSeconds() + " s.", requestId);
    }

    /** A refusal the endpoint makes itself, with a status no {@code RequestRejectedException} has. */
    static Answer refusal(int status, String type, String code, String param, String message, String requestId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-request-id", requestId);
        headers.put("x-should-retry", "false");
        return new Answer(status, headers, bytes(Json.error(message, type, code, param)));
    }

    /** Sets status and headers for a failure and returns the body. */
    static byte[] failure(HttpServletResponse resp, Throwable error, String fallbackId) {
        Answer answer = failure(error, fallbackId);
        answer.applyTo(resp);
        return answer.body();
    }

    /** A blocking write of a small error, for refusals made before the async cycle starts. */
    static void error(HttpServletResponse resp, FailoverException e, String requestId) throws IOException {
        write(resp, failure(e, requestId));
    }

    /** A blocking write of a refusal without a param, before the async cycle starts. */
    static void refuse(HttpServletResponse resp, int status, String type, String code, String message, String requestId)
            throws IOException {
        write(resp, refusal(status, type, code, null, message, requestId));
    }

    static void write(HttpServletResponse resp, Answer answer) throws IOException {
        answer.applyTo(resp);
        resp.getOutputStream().write(answer.body());
    }

    static void json(HttpServletResponse resp, int status, JsonStructure body) throws IOException {
        byte[] bytes = bytes(body);
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    private static byte[] bytes(JsonStructure json) {
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }
}
