package dev.baton.impl.servlet;

import jakarta.servlet.http.HttpServletResponse;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A whole JSON answer as a value: status, headers and body. Built once and written by
 * {@link #applyTo}; an idempotent request's answer is kept in this form and written again, byte
 * for byte, for each repeat. Immutable: every caller hands over a map and an array of its own, which nothing writes
 * to afterwards, so neither is copied on the way in or out (an answer's body is copied once, into the container).
 *
 * @param status  the HTTP status
 * @param headers the endpoint's own headers (request id, served-by, retry hints), in order
 * @param body    the JSON body, UTF-8
 */
record Answer(int status, Map<String, String> headers, byte[] body) {

    static final String REPLAY_HEADER = "x-baton-idempotent-replay";

    Answer {
        headers = Collections.unmodifiableMap(headers);
    }

    /**
     * Sets the status line and headers; the caller writes {@link #body()}. A Content-Length lets
     * the connection stay open after the answer without chunked framing.
     */
    void applyTo(HttpServletResponse resp) {
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(body.length);
        headers.forEach(resp::setHeader);
    }

    /** The same answer marked as given again to a repeated request. */
    Answer replayed() {
        Map<String, String> marked = new LinkedHashMap<>(headers);
        marked.put(REPLAY_HEADER, "true");
        return new Answer(status, marked, body);
    }

    /** Whether a repeat may be given this answer later: a served 200, never an error or a degraded text. */
    boolean storable() {
        return status == 200 && !headers.containsKey("x-baton-degraded");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Answer a && a.status == status && a.headers.equals(headers) && Arrays.equals(a.body, body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "Answer[" + status + ", " + headers + ", " + body.length + " bytes]";
    }
}
