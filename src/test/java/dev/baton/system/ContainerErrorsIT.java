package dev.baton.system;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the container would decide on the endpoint's paths, answered in the endpoint's JSON: wrong methods (405 with
 * {@code Allow}), unknown paths (404), paths the container refuses (an encoded slash, dot or backslash), bodies past
 * the limit. Where a server answers before any application code runs and lets no application change it (oversized
 * headers; Undertow's TRACE), the test asserts what the server does and says why.
 */
class ContainerErrorsIT extends ClientSideIT {

    private static final String KEY = "Bearer " + Gateway.KEY;
    private static final String ADMIN = "Bearer " + Gateway.ADMIN_KEY;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-errors.war");
    }

    private static boolean liberty() {
        return "liberty".equals(System.getProperty("arquillian.launch"));
    }

    /** One request on a fresh connection, with a body when one is given. */
    private RawHttp.Response request(String method, String relative, String authorization, byte[] body) {
        StringBuilder head = new StringBuilder(method + " " + RawHttp.path(base, relative) + " HTTP/1.1\r\n"
                + "Host: localhost\r\n");
        if (authorization != null) {
            head.append("Authorization: ").append(authorization).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        try (RawHttp http = new RawHttp(base, 10_000)) {
            http.send(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                http.send(body);
            }
            return http.read();
        }
    }

    /** The {@code error} object of an OpenAI-shaped error answer, after checking its shape. */
    private static JsonObject error(RawHttp.Response response) {
        String type = String.valueOf(response.header("content-type")).toLowerCase(Locale.ROOT);
        assertTrue(type.startsWith("application/json"), () -> response.status() + " " + response.headers() + " "
                + response.body());
        JsonObject error = Gateway.json(response.body()).getJsonObject("error");
        assertFalse(error.getString("message").isBlank());
        assertFalse(error.getString("type").isBlank());
        assertFalse(error.getString("code").isBlank());
        assertEquals(JsonValue.NULL, error.get("param"));
        return error;
    }

    static Stream<Object[]> wrongMethods() {
        byte[] chat = Gateway.chatBody(Gateway.ROUTE, false).getBytes(StandardCharsets.UTF_8);
        return Stream.of(
                new Object[] {"PUT", "v1/chat/completions", KEY, chat, "POST, OPTIONS"},
                new Object[] {"DELETE", "v1/chat/completions", KEY, null, "POST, OPTIONS"},
                new Object[] {"PATCH", "v1/chat/completions", KEY, chat, "POST, OPTIONS"},
                new Object[] {"GET", "v1/chat/completions", KEY, null, "POST, OPTIONS"},
                new Object[] {"FOO", "v1/chat/completions", KEY, null, "POST, OPTIONS"},
                new Object[] {"POST", "v1/models", KEY, chat, "GET, HEAD, OPTIONS"},
                new Object[] {"DELETE", "v1/requests/req_1", KEY, null, "GET, HEAD, OPTIONS"},
                new Object[] {"DELETE", "v1/connections/primary", ADMIN, null, "GET, HEAD, OPTIONS"},
                new Object[] {"PUT", "v1/connections/primary/eject", ADMIN, "{}".getBytes(StandardCharsets.UTF_8),
                        "POST, OPTIONS"},
                new Object[] {"DELETE", "v1/records", ADMIN, null, "GET, HEAD, OPTIONS"});
    }

    @ParameterizedTest
    @MethodSource("wrongMethods")
    void aWrongMethodIs405InJsonWithAllow(String method, String path, String authorization, byte[] body, String allow) {
        RawHttp.Response response = request(method, path, authorization, body);
        assertEquals(405, response.status(), response::body);
        assertEquals(allow, response.header("allow"));
        JsonObject error = error(response);
        assertEquals("method_not_allowed", error.getString("code"));
        assertTrue(error.getString("message").contains(method), error::toString);
    }

    @Test
    void optionsNamesTheMethodsOfThePath() {
        RawHttp.Response response = request("OPTIONS", "v1/chat/completions", KEY, null);
        assertEquals(204, response.status(), response::body);
        assertEquals("POST, OPTIONS", response.header("allow"));
    }

    /** A wrong method without a key is refused for the key first: a stranger learns nothing of the paths. */
    @Test
    void aWrongMethodWithoutAKeyIs401() {
        RawHttp.Response response = request("PUT", "v1/chat/completions", null, "{}".getBytes(StandardCharsets.UTF_8));
        assertEquals(401, response.status(), response::body);
        error(response);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "PUT", "DELETE", "POST"})
    void anUnknownPathUnderTheMountIs404InJson(String method) {
        RawHttp.Response response = request(method, "v1/no/such/path", KEY, method.equals("GET") ? null : new byte[0]);
        assertEquals(404, response.status(), response::body);
        assertEquals("not_found", error(response).getString("code"));
    }

    /**
     * Open Liberty refuses an encoded slash, dot or backslash in the path (Servlet 6.0's suspicious sequences) with
     * 400 before any filter, and Baton's error page answers it; WildFly leaves {@code %2F} and {@code %5C} encoded
     * (allow-encoded-slash is off), so the path reaches Baton as an unknown record or connection, 404.
     */
    @ParameterizedTest
    @ValueSource(strings = {"v1/requests/a%2fb", "v1/requests/..%2fmodels", "v1/requests/..%2f..%2f..%2fetc%2fpasswd",
        "v1/requests/a%5cb", "v1/requests/..", "v1/connections/..%2f..", "v1/records/a%2Fb"})
    void aBadPathIsAnsweredInJson(String path) {
        RawHttp.Response response = request("GET", path, path.contains("/requests/") ? KEY : ADMIN, null);
        assertTrue(response.status() == 400 || response.status() == 404, () -> response.status() + " "
                + response.body());
        error(response);
        if (liberty() && path.contains("%")) {
            assertEquals(400, response.status(), response::body);
            assertEquals("invalid_request", error(response).getString("code"));
        }
    }

    /** An encoded dot is decoded and the path normalized by WildFly, refused by Open Liberty; JSON either way. */
    @Test
    void anEncodedDotSegmentIsAnsweredInJson() {
        RawHttp.Response response = request("GET", "v1/requests/%2e%2e/models", KEY, null);
        assertTrue(response.header("content-type").startsWith("application/json"), response::toString);
        assertEquals(liberty() ? 400 : 200, response.status(), response::body);
    }

    /**
     * Baton's error page answers the application's other paths with a plain page of the status and message, never
     * the endpoint's JSON (Open Liberty; WildFly has no servlet there and answers 404 itself).
     */
    @Test
    void aBadPathOutsideTheMountIsNotAnsweredInJson() {
        RawHttp.Response response = request("GET", "elsewhere/a%2fb", null, null);
        assertFalse(String.valueOf(response.header("content-type")).startsWith("application/json"),
                response::toString);
        if (liberty()) {
            assertEquals(400, response.status(), response::body);
            assertTrue(response.body().startsWith("<html><head><title>Error</title></head><body>Error 400: "),
                    response::body);
        } else {
            assertEquals(404, response.status(), response::body);
        }
    }

    /**
     * TRACE cannot get JSON on either server, and each refuses it as a security default (cross-site tracing) that an
     * application should not turn off. Open Liberty refuses it with 403 in its web container's security collaborator,
     * before any filter; it forwards to an error page with the same method and refuses that again, so an error page
     * for 403 gets an empty body (tried). WildFly refuses it in Undertow's HTTP listener ({@code disallowed-methods},
     * TRACE by default), before the request reaches the web application, with an empty 405.
     */
    @Test
    void traceIsRefusedByTheServer() {
        RawHttp.Response response = request("TRACE", "v1/chat/completions", KEY, null);
        assertNull(response.header("x-request-id"), "no application code saw it");
        if (liberty()) {
            assertEquals(403, response.status(), response::body);
            assertTrue(response.body().contains("TRACE"), response::body);
        } else {
            assertEquals(405, response.status(), response::body);
            assertEquals("", response.body());
        }
    }

    /**
     * A malformed escape cannot get JSON either: both servers refuse it while decoding the request line, before they
     * know which application it is for. Open Liberty's web container answers 400 with a one-line HTML page (no error
     * page is consulted); Undertow's HTTP listener answers an empty 400 and closes the connection.
     */
    @Test
    void aMalformedEscapeIsRefusedByTheServer() {
        RawHttp.Response response = request("GET", "v1/requests/a%zz", KEY, null);
        assertEquals(400, response.status(), response::body);
        assertNull(response.header("x-request-id"), "no application code saw it");
        if (liberty()) {
            assertTrue(response.body().contains("CWWWC0005I"), response::body);
        } else {
            assertEquals("", response.body());
        }
    }

    /**
     * A 50 MB body, sent whole, with a Content-Length or chunked: 413 in JSON on both servers. On WildFly this needs
     * the listener's max-post-size off (war-sample/src/main/wildfly/baton.cli): Undertow otherwise refuses a
     * Content-Length above 10 MB with an empty 400 while it reads the head, before any application code.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFiftyMegabyteBodyIs413InJson(boolean chunked) throws InterruptedException {
        int size = 50 * 1024 * 1024;
        try (RawHttp http = new RawHttp(base, 20_000)) {
            http.send(("POST " + RawHttp.path(base, "v1/chat/completions") + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: " + KEY + "\r\nContent-Type: application/json\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + size + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            AtomicReference<RuntimeException> stopped = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                byte[] block = new byte[64 * 1024];
                Arrays.fill(block, (byte) ' ');
                byte[] chunkHead = (Integer.toHexString(block.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
                try {
                    for (int sent = 0; sent < size; sent += block.length) {
                        if (chunked) {
                            http.send(chunkHead, block, "\r\n".getBytes(StandardCharsets.ISO_8859_1));
                        } else {
                            http.send(block);
                        }
                    }
                } catch (RuntimeException e) {
                    stopped.set(e); // the server may close once it has answered
                }
            });
            writer.start();
            RawHttp.Response response = http.read();
            assertEquals(413, response.status(), response::toString);
            assertEquals("request_too_large", error(response).getString("code"));
            http.close();
            writer.join(20_000);
        }
    }

    static Stream<Object[]> oversizedHeaders() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            many.append("X-Header-").append(i).append(": v\r\n");
        }
        return Stream.of(new Object[] {"one 1 MB header", "X-Junk: " + "j".repeat(1024 * 1024) + "\r\n"},
                new Object[] {"10,000 headers", many.toString()});
    }

    /**
     * Oversized headers cannot get JSON on either server: the HTTP layer refuses them while it parses the head, before
     * the request is handed to any web application, with a fixed empty 400 and {@code Connection: close}. Open
     * Liberty's HTTP channel past {@code httpOptions limitFieldSize} (32 KB by default) or {@code limitNumHeaders}
     * (500, also its maximum); Undertow past the listener's {@code max-header-size} (1 MiB for the whole head) or
     * {@code max-headers} (200). Raising a limit only moves the line. So this asserts the server's answer: an empty
     * 400 and a closed connection (or the connection closed while the head was still being sent), never a hang.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oversizedHeaders")
    void oversizedHeadersGetTheServersEmpty400(String what, String headers) {
        byte[] body = Gateway.chatBody(Gateway.ROUTE, false).getBytes(StandardCharsets.UTF_8);
        try (RawHttp http = new RawHttp(base, 10_000)) {
            RawHttp.Response response;
            try {
                response = http.send(RawHttp.head(RawHttp.path(base, "v1/chat/completions"), KEY, body.length, headers),
                        body).read();
            } catch (UncheckedIOException e) {
                assertFalse(e.getCause() instanceof SocketTimeoutException, "no answer: " + e);
                return; // closed mid-head
            }
            assertEquals(400, response.status(), response::toString);
            assertEquals("", response.body());
            assertEquals("close", String.valueOf(response.header("connection")).toLowerCase(Locale.ROOT));
            assertNull(response.header("x-request-id"), "no application code saw it");
        }
    }
}
