package dev.baton.impl.servlet;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The error page that Baton's {@code META-INF/web-fragment.xml} declares for 400, a status a container decides
 * before any filter of the application runs: Open Liberty refuses a path with an encoded slash, dot or backslash (the
 * "suspicious sequences" of Servlet 6.0, 3.5.2) so, from its web container. (Its 403 for {@code TRACE} cannot be
 * answered this way: Liberty forwards to the error page with the same method and refuses it again.)
 *
 * <p>Error pages belong to the whole application, so this one looks at the path that failed: below the endpoint's
 * mount point it answers in the endpoint's JSON; anywhere else, and when the endpoint is disabled, it writes a short
 * page with the status, as the container's own would. An application that declares its own {@code <error-page>} for
 * the same status in {@code web.xml} replaces this one (web.xml wins over fragments). Thread-safe.
 */
public class ContainerErrorServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        // Requested directly rather than as an error page: there is nothing here.
        int status = req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer code ? code : 404;
        String uri = req.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String s ? s : null;
        String path = getServletContext().getAttribute(EndpointInitializer.PATH_ATTRIBUTE) instanceof String p
                ? p : null;
        if (uri != null && path != null && below(uri, req.getContextPath() + path)) {
            Responses.write(resp, Responses.refusal(status, status >= 500 ? "server_error" : type(status),
                    code(status), null, message(status), GatewayFilter.requestId(req)));
        } else {
            page(resp, status, req.getAttribute(RequestDispatcher.ERROR_MESSAGE) instanceof String m ? m : "");
        }
    }

    private static boolean below(String uri, String mount) {
        return uri.equals(mount) || uri.startsWith(mount + "/");
    }

    private static String type(int status) {
        return status == 401 ? "authentication_error" : status == 403 ? "permission_error" : "invalid_request_error";
    }

    private static String code(int status) {
        return switch (status) {
            case 400 -> "invalid_request";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            default -> "http_" + status;
        };
    }

    /** What the caller can do about it; the container's own message is not repeated, as it quotes the caller's path. */
    private static String message(int status) {
        return switch (status) {
            case 400 -> "The server refused this request before it reached Baton: its path has a sequence the server "
                    + "does not accept, such as an encoded '/', '.' or '\\'.";
            default -> "The server answered " + status + " before the request reached Baton.";
        };
    }

    /**
     * For a path that is not Baton's: the status and the message (an application's own {@code sendError(400, ...)}
     * keeps its message), escaped, like the containers' default pages.
     */
    private static void page(HttpServletResponse resp, int status, String message) throws IOException {
        byte[] body = ("<html><head><title>Error</title></head><body>Error " + status
                + (message.isEmpty() ? "" : ": " + escaped(message)) + "</body></html>").getBytes(StandardCharsets.UTF_8);
        resp.setStatus(status);
        resp.setContentType("text/html");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
