package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * The endpoint's gate: a request id for every response, the gateway key, and the size limits.
 * Refusals here are immediate and never reach a provider. Thread-safe.
 */
public class GatewayFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final SecureRandom IDS = new SecureRandom();
    /** Longest header value the endpoint reads; anything larger is refused before parsing. */
    private static final int MAX_HEADER_CHARS = 8 * 1024;

    private transient GatewayKeys keys;
    private int maxBodyBytes;

    GatewayFilter(List<byte[]> keyHashes, int maxBodyBytes) {
        this.keys = new GatewayKeys(keyHashes);
        this.maxBodyBytes = maxBodyBytes;
    }

    public GatewayFilter() {
        this(List.of(), 1024 * 1024);
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse resp, FilterChain chain)
            throws IOException, ServletException {
        String id = "req_" + newId();
        req.setAttribute(ChatEndpointServlet.REQUEST_ID, id);
        resp.setHeader("x-request-id", id); // replaced by the record's id once the engine admits the request
        String authorization = req.getHeader("authorization");
        if (authorization != null && authorization.length() > MAX_HEADER_CHARS) {
            Responses.error(resp, RequestRejectedException.unauthorized("The Authorization header is too large."), id);
            return;
        }
        if (keys.required() && !keys.accepts(authorization)) {
            Responses.error(resp, RequestRejectedException.unauthorized(authorization == null
                    ? "Missing gateway key: send Authorization: Bearer <key>."
                    : "The gateway key is not valid."), id);
            return;
        }
        if (req.getContentLengthLong() > maxBodyBytes) {
            Responses.error(resp, RequestRejectedException.tooLarge("The request body is larger than "
                    + maxBodyBytes + " bytes."), id);
            return;
        }
        chain.doFilter(req, resp);
    }

    static String requestId(HttpServletRequest req) {
        Object id = req.getAttribute(ChatEndpointServlet.REQUEST_ID);
        return id instanceof String s ? s : "req_" + newId();
    }

    private static String newId() {
        byte[] bytes = new byte[12];
        IDS.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
