package dev.baton.impl.servlet;

import dev.baton.ChatResponse;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;

/** Status lines and headers of the endpoint's answers, in one place so every path says the same. */
final class Responses {

    private static final System.Logger LOG = System.getLogger(Responses.class.getName());

    private Responses() {
    }

    /** Headers of a success: the request id and what served, for JSON and streams alike. */
    static void servedBy(HttpServletResponse resp, ServedBy by, String requestId) {
        resp.setHeader("x-request-id", requestId);
        resp.setHeader("x-baton-model", by.model());
        resp.setHeader("x-baton-provider", by.provider());
        resp.setHeader("x-baton-connection", by.connection());
        resp.setHeader("x-baton-route", by.position());
        if (by.routeName() != null) {
            resp.setHeader("x-baton-route-name", by.routeName());
        }
    }

    /** A served answer's headers; a degraded one has {@code x-baton-degraded: true} instead of served-by headers. */
    static void success(HttpServletResponse resp, ChatResponse answer) {
        resp.setStatus(200);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        if (answer.degraded()) {
            resp.setHeader("x-request-id", answer.requestId());
            resp.setHeader("x-baton-degraded", "true");
        } else {
            servedBy(resp, answer.servedBy(), answer.requestId());
        }
    }

    /**
     * Sets status and headers for a failure and returns the body. {@code x-should-retry} tells the
     * official SDKs whether to retry: only when a retry can help, so they do not multiply attempts
     * Baton already made.
     */
    static byte[] failure(HttpServletResponse resp, Throwable error, String fallbackId) {
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        if (!(error instanceof FailoverException e)) {
            LOG.log(Level.ERROR, "request " + fallbackId + " failed unexpectedly", error);
            resp.setStatus(500);
            resp.setHeader("x-request-id", fallbackId);
            resp.setHeader("x-should-retry", "false");
            return bytes(Json.error("Internal error; see the server log for request " + fallbackId + ".",
                    "server_error", "internal_error", null));
        }
        resp.setStatus(e.httpStatus());
        resp.setHeader("x-request-id", e.requestId().orElse(fallbackId));
        resp.setHeader("x-should-retry", Boolean.toString(e.retryable()));
        e.retryAfter().ifPresent(d -> resp.setHeader("retry-after", Long.toString(Math.max(1, (d.toMillis() + 999) / 1000))));
        return bytes(Json.error(e));
    }

    /** A blocking write of a small error, for refusals made before the async cycle starts. */
    static void error(HttpServletResponse resp, FailoverException e, String requestId) throws IOException {
        byte[] body = failure(resp, e, requestId);
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }

    static void json(HttpServletResponse resp, int status, JsonObject body) throws IOException {
        byte[] bytes = bytes(body);
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    private static byte[] bytes(JsonObject json) {
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }
}
