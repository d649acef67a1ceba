package dev.baton.impl.servlet;

import java.util.List;

/**
 * Which methods each of the endpoint's paths takes, so that {@link GatewayFilter} answers a wrong method (405 with
 * {@code Allow}) or an unknown path (404) in JSON before the container's {@code HttpServlet} defaults write an HTML
 * page. Paths are relative to the mount point, e.g. {@code /chat/completions}; an empty list means no such endpoint.
 */
final class EndpointPaths {

    private static final List<String> POST = List.of("POST");
    private static final List<String> GET = List.of("GET", "HEAD");

    private EndpointPaths() {
    }

    /** The methods of a path that {@link ChatEndpointServlet} serves. */
    static List<String> chat(String relative) {
        if (ChatEndpointServlet.api(relative) != null) {
            return POST;
        }
        if (relative.equals("/models") || relative.startsWith("/requests/") && relative.length() > "/requests/".length()) {
            return GET;
        }
        return List.of();
    }

    /** The methods of a path that {@link OperatorServlet} serves, split into segments as it splits them. */
    static List<String> operator(String relative) {
        String trimmed = relative.replaceAll("^/+|/+$", "");
        String[] parts = trimmed.isEmpty() ? new String[0] : trimmed.split("/");
        if (parts.length == 1 && (parts[0].equals("connections") || parts[0].equals("cluster")
                || parts[0].equals("records"))) {
            return GET;
        }
        if (parts.length == 2 && parts[0].equals("connections")) {
            return GET;
        }
        if (parts.length == 3 && parts[0].equals("connections")
                && (parts[2].equals("eject") || parts[2].equals("restore"))) {
            return POST;
        }
        return List.of();
    }

    /** The methods of a path that {@link ConsoleServlet} serves: the page's files and its data views. */
    static List<String> console(String relative) {
        return ConsoleServlet.isPage(relative) || ConsoleServlet.isData(relative) ? GET : List.of();
    }

    /** The {@code Allow} header of a path that takes {@code methods}. */
    static String allow(List<String> methods) {
        return String.join(", ", methods) + ", OPTIONS";
    }

    /**
     * {@code text} cut to a length fit to quote in a message: a path is the caller's own text, and one of 100 KB
     * should not come back whole.
     */
    static String quoted(String text) {
        int max = 200;
        return text.length() <= max ? text : text.substring(0, max) + "… (" + text.length() + " characters)";
    }
}
