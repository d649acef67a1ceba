package dev.baton.impl.servlet;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The endpoint's gate: a request id for every response, the gateway and admin keys, the size
 * limits, and which paths and methods exist ({@link EndpointPaths}). Refusals here are immediate,
 * in JSON, and never reach a provider.
 *
 * <p>The two kinds of key open different doors: gateway keys ({@code api-key-sha256}) the chat
 * endpoints, the admin key ({@code admin-key-sha256}) the operator endpoints and
 * {@code GET /requests/{id}}. A key that opens one door is refused at the other with 403, so a
 * leaked application key cannot eject connections and an operator's key cannot spend tokens.
 * Without an admin key the operator paths are not special here, and the servlet answers 404.
 * Thread-safe.
 */
public class GatewayFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    /** Request attribute naming the authenticated caller, the scope of its idempotency keys. */
    static final String CALLER = "dev.baton.caller";
    /** Request attribute holding the caller's {@link NamedKey}, when it sent one. */
    static final String NAMED_KEY = "dev.baton.named-key";
    /** Longest header value the endpoint reads; anything larger is refused before parsing. */
    private static final int MAX_HEADER_CHARS = 8 * 1024;

    private transient GatewayKeys keys;
    private transient GatewayKeys adminKeys;
    /** The named keys by the hex of their digest, as {@link GatewayKeys#match} returns it. */
    private transient Map<String, NamedKey> named;
    private String path;
    private int maxBodyBytes;
    /** Whether the operator console is served: its page opens without a key, its data with the admin key only. */
    private boolean console;

    /** The keys, admin keys and body limit of {@code settings}; named keys open the chat endpoints like the others. */
    GatewayFilter(EndpointSettings settings) {
        this.path = settings.path();
        List<byte[]> all = new ArrayList<>(settings.keyHashes());
        this.named = new HashMap<>();
        for (NamedKey key : settings.namedKeys()) {
            all.add(key.sha256());
            named.put(HexFormat.of().formatHex(key.sha256()), key);
        }
        this.keys = new GatewayKeys(all);
        this.adminKeys = new GatewayKeys(settings.adminKeyHashes());
        this.maxBodyBytes = settings.maxBodyBytes();
        this.console = settings.console();
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse resp, FilterChain chain)
            throws IOException, ServletException {
        String id = "req_" + newId();
        req.setAttribute(ChatEndpointServlet.REQUEST_ID, id);
        resp.setHeader("x-request-id", id); // replaced by the record's id once the engine admits the request
        String authorization = req.getHeader("authorization");
        if (authorization != null && authorization.length() > MAX_HEADER_CHARS) {
            Responses.error(resp, Rejections.unauthorized("The Authorization header is too large."), id);
            return;
        }
        // Both sets are always compared, so the time taken says nothing about which kind of key was sent.
        byte[] presented = GatewayKeys.presented(authorization);
        String gatewayKey = keys.match(presented);
        String adminKey = adminKeys.match(presented);
        String relative = relativePath(req);
        if (console && ConsoleServlet.isPage(relative)) {
            // The page's own files hold no data: its sign-in form must load before any key is known.
            if (!answeredRoute(req, resp, relative, id)) {
                chain.doFilter(req, resp);
            }
            return;
        }
        if (adminKeys.required() && (OperatorServlet.handles(relative) || console && ConsoleServlet.isData(relative))) {
            if (adminKey == null) {
                if (gatewayKey != null) {
                    Responses.refuse(resp, 403, "permission_error", "admin_key_required",
                            "A gateway key cannot use the operator endpoints; send the admin key.", id);
                } else {
                    Responses.error(resp, Rejections.unauthorized(authorization == null
                            ? "Missing admin key: send Authorization: Bearer <admin key>."
                            : "The admin key is not valid."), id);
                }
                return;
            }
            if (!answeredRoute(req, resp, relative, id)) {
                req.setAttribute(CALLER, "admin");
                chain.doFilter(req, resp);
            }
            return;
        }
        if (adminKey != null && !("GET".equals(req.getMethod()) && relative.startsWith("/requests/"))) {
            if (EndpointPaths.chat(relative).isEmpty() && answeredRoute(req, resp, relative, id)) {
                return; // no such path (the console when it is off, say): 404 for the operator too
            }
            Responses.refuse(resp, 403, "permission_error", "gateway_key_required",
                    "The admin key opens only the operator endpoints; send a gateway key.", id);
            return;
        }
        if (keys.required() && gatewayKey == null && adminKey == null) {
            Responses.error(resp, Rejections.unauthorized(authorization == null
                    ? "Missing gateway key: send Authorization: Bearer <key>."
                    : "The gateway key is not valid."), id);
            return;
        }
        if (answeredRoute(req, resp, relative, id)) {
            return;
        }
        if (req.getContentLengthLong() > maxBodyBytes) {
            Responses.error(resp, Rejections.tooLarge("The request body is larger than "
                    + maxBodyBytes + " bytes."), id);
            return;
        }
        req.setAttribute(CALLER, caller(gatewayKey, adminKey, req.getUserPrincipal()));
        NamedKey key = gatewayKey == null ? null : named.get(gatewayKey);
        if (key != null) {
            req.setAttribute(NAMED_KEY, key);
        }
        chain.doFilter(req, resp);
    }

    /**
     * Answers an unknown path (404) or a method the path does not take (405 with {@code Allow}; an {@code OPTIONS} gets
     * 204 with it) for Baton's own servlets, in JSON: left to them, {@code HttpServlet}'s defaults would answer PUT,
     * DELETE, PATCH and other methods with the container's HTML page. Returns whether it answered.
     */
    private static boolean answeredRoute(HttpServletRequest req, HttpServletResponse resp, String relative, String id)
            throws IOException {
        HttpServletMapping mapping = req.getHttpServletMapping();
        String servlet = mapping == null ? null : mapping.getServletName();
        List<String> methods;
        if (EndpointInitializer.OPERATOR_SERVLET.equals(servlet)) {
            methods = EndpointPaths.operator(relative);
        } else if (EndpointInitializer.CONSOLE_SERVLET.equals(servlet)) {
            methods = EndpointPaths.console(relative);
        } else if (EndpointInitializer.CHAT_SERVLET.equals(servlet)) {
            methods = EndpointPaths.chat(relative);
        } else {
            return false; // an application's own servlet below the mount point answers for itself
        }
        String method = req.getMethod();
        String uri = EndpointPaths.quoted(req.getRequestURI());
        if (methods.isEmpty()) {
            Responses.error(resp, Rejections.notFound("No such endpoint: " + EndpointPaths.quoted(method) + " " + uri),
                    id);
            return true;
        }
        if (methods.contains(method)) {
            return false;
        }
        resp.setHeader("Allow", EndpointPaths.allow(methods));
        if ("OPTIONS".equals(method)) {
            resp.setStatus(HttpServletResponse.SC_NO_CONTENT);
        } else {
            Responses.refuse(resp, 405, "invalid_request_error", "method_not_allowed", EndpointPaths.quoted(method)
                    + " is not allowed on " + uri + "; use " + methods.get(0) + ".", id);
        }
        return true;
    }

    /** Who is calling, without the key: its digest, the container's user, or nobody in particular. */
    private static String caller(String gatewayKey, String adminKey, Principal user) {
        if (gatewayKey != null) {
            return "key:" + gatewayKey;
        }
        if (adminKey != null) {
            return "admin";
        }
        return user != null ? "user:" + user.getName() : "anonymous";
    }

    /** The path below the endpoint's mount point, e.g. {@code /chat/completions}. */
    private String relativePath(HttpServletRequest req) {
        String full = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        return full.startsWith(path) ? full.substring(path.length()) : full;
    }

    static String requestId(HttpServletRequest req) {
        Object id = req.getAttribute(ChatEndpointServlet.REQUEST_ID);
        return id instanceof String s ? s : "req_" + newId();
    }

    /** The caller's named key, or {@code null} when it sent an unnamed one or none. */
    static NamedKey namedKey(HttpServletRequest req) {
        return req.getAttribute(NAMED_KEY) instanceof NamedKey key ? key : null;
    }

    static String caller(HttpServletRequest req) {
        Object caller = req.getAttribute(CALLER);
        return caller instanceof String s ? s : "anonymous";
    }

    /**
     * Names a response until the engine admits the request and its record's id (unguessable: a record is fetched by
     * it) takes over. This one opens nothing, so it needs no secure random and no lock.
     */
    private static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextInt());
    }
}
