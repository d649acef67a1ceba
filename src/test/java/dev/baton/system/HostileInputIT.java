package dev.baton.system;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bodies and connections an attacker or a broken client sends, through the endpoint on a real
 * server: each gets a 4xx within a second (a trickled body within the read limit), refusals keep
 * the connection open, and the server serves normally afterwards.
 */
class HostileInputIT extends ClientSideIT {

    private static final String CHAT = "v1/chat/completions";
    private static final String KEY = "Bearer " + Gateway.KEY;
    private static final long ANSWER_WITHIN_MILLIS = 1_000;
    /** BodyReader.MAX_READ_TIME on the server. */
    private static final Duration MAX_READ_TIME = Duration.ofSeconds(10);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it.war");
    }

    @AfterEach
    void stillServesNormally() {
        var response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        assertEquals(200, response.statusCode(), response::body);
    }

    private String path() {
        return RawHttp.path(base, CHAT);
    }

    /** One request on a fresh connection; asserts a 4xx in time and returns it. */
    private RawHttp.Response refused(byte[] body) {
        long start = System.nanoTime();
        try (RawHttp http = new RawHttp(base, 5_000)) {
            RawHttp.Response response = http.post(path(), KEY, body);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(response.status() >= 400 && response.status() < 500, () -> response.status() + " " + response.body());
            assertTrue(millis < ANSWER_WITHIN_MILLIS, () -> "answered after " + millis + " ms");
            return response;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String chat(String messages) {
        return "{\"model\":\"" + Gateway.ROUTE + "\",\"messages\":" + messages + "}";
    }

    @ParameterizedTest
    @ValueSource(ints = {1_000, 20_000})
    void deepNestingIsRefusedNamingTheLimit(int depth) {
        RawHttp.Response response = refused(utf8(chat("[" + "[".repeat(depth) + "]".repeat(depth) + "]")));
        assertEquals(400, response.status(), response::body);
        assertTrue(response.body().contains("deeper than 64 levels"), response::body);
    }

    static Stream<String> malformed() {
        return Stream.of(
                chat("[{\"role\":\"user\",\"content\":\"Hi\"}]").replaceFirst("\\{", "{\"max_tokens\":" + "9".repeat(5_000) + ","),
                "{\"model\":\"demo\",\"model\":\"demo\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                "{\"model\":42,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                "{\"model\":\"demo\",\"messages\":{\"role\":\"user\",\"content\":\"Hi\"}}",
                "{\"model\":\"demo\",\"messages\":[\"Hi\"]}",
                "{\"model\":\"demo\",\"messages\":[{\"role\":\"user\",\"content\":42}]}",
                "{\"model\":\"demo\",\"messages\":[{\"role\":42,\"content\":\"Hi\"}]}",
                "{\"model\":\"demo\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":42}]}]}",
                "{\"model\":\"demo\",\"stream\":\"yes\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                "{\"model\":\"demo\",\"fallbacks\":\"gpt-5.4-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                "[{\"model\":\"demo\"}]",
                "\"demo\"",
                "{\"model\":\"demo\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}",                   // truncated
                "");
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedOrMistypedBodiesAreRefused(String body) {
        refused(utf8(body));
    }

    @Test
    void invalidUtf8IsRefused() {
        byte[] body = utf8(chat("[{\"role\":\"user\",\"content\":\"caf\u00e9\"}]"));
        int e = new String(body, StandardCharsets.ISO_8859_1).indexOf("caf") + 3;
        body[e + 1] = (byte) 0x28; // the second byte of é, no longer a continuation byte
        RawHttp.Response response = refused(body);
        assertEquals("The request body is not valid UTF-8.", Gateway.json(response.body()).getJsonObject("error")
                .getString("message"));
    }

    @Test
    void aBodyShorterThanItsContentLengthIsRefused() {
        long start = System.nanoTime();
        try (RawHttp http = new RawHttp(base, 5_000)) {
            byte[] body = utf8(chat("[]"));
            http.send(RawHttp.head(path(), KEY, body.length + 100, ""), body);
            http.shutdownOutput();
            RawHttp.Response response = http.read();
            assertEquals(400, response.status(), response::body);
            assertTrue(System.nanoTime() - start < ANSWER_WITHIN_MILLIS * 1_000_000);
        }
    }

    @Test
    void aTrickledBodyIsRefusedAfterTheReadLimit() throws InterruptedException {
        long start = System.nanoTime();
        try (RawHttp http = new RawHttp(base, 5_000)) {
            http.send(RawHttp.head(path(), KEY, 10_000, ""));
            long limit = start + MAX_READ_TIME.plusSeconds(5).toNanos();
            while (!http.answered() && System.nanoTime() < limit) {
                http.send(new byte[] {' '});
                Thread.sleep(100);
            }
            RawHttp.Response response = http.read();
            long seconds = (System.nanoTime() - start) / 1_000_000_000;
            assertEquals(408, response.status(), response::body);
            assertTrue(seconds <= MAX_READ_TIME.toSeconds() + 1, () -> "answered after " + seconds + " s");
        }
    }

    @Test
    void anOversizedAuthorizationHeaderIsRefused() {
        try (RawHttp http = new RawHttp(base, 5_000)) {
            RawHttp.Response response = http.post(path(), "Bearer " + "k".repeat(16 * 1024), utf8(Gateway.chatBody(
                    Gateway.ROUTE, false)));
            assertEquals(401, response.status(), response::body);
        }
    }

    /** Refused with a 4xx, or the connection closed while the header is still being sent; never a hang. */
    @Test
    void anOversizedHeaderIsRefusedByTheServer() {
        try (RawHttp http = new RawHttp(base, 5_000)) {
            byte[] body = utf8(Gateway.chatBody(Gateway.ROUTE, false));
            RawHttp.Response response;
            try {
                response = http.send(RawHttp.head(path(), KEY, body.length,
                        "X-Junk: " + "j".repeat(2 * 1024 * 1024) + "\r\n"), body).read();
            } catch (UncheckedIOException e) {
                assertFalse(e.getCause() instanceof SocketTimeoutException, "no answer: " + e);
                return; // closed mid-header (Open Liberty may, before the client has written it all)
            }
            assertTrue(response.status() >= 400 && response.status() < 500, () -> response.status() + " " + response.body());
        }
    }

    /**
     * Refusals keep the connection where the server allows it: the next request on the same socket
     * is answered. Open Liberty closes after 400, 403 and 404 whatever the application does (see
     * {@link RawHttp#keepsAliveAfter}); it must then say so and close.
     */
    static Stream<Object[]> refusals() {
        return Stream.of(
                new Object[] {401, "Bearer wrong-key", Gateway.chatBody(Gateway.ROUTE, false)},
                new Object[] {403, "Bearer " + Gateway.ADMIN_KEY, Gateway.chatBody(Gateway.ROUTE, false)},
                new Object[] {404, KEY, Gateway.chatBody("gpt-nonexistent", false)},
                new Object[] {400, KEY, "{\"model\":"});
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void refusalsKeepTheConnectionWhereTheServerAllows(int status, String authorization, String body) {
        try (RawHttp http = new RawHttp(base, 10_000)) {
            for (int i = 0; i < 2; i++) {
                RawHttp.Response refusal = http.post(path(), authorization, utf8(body));
                assertEquals(status, refusal.status(), refusal::body);
                if (!http.keptAfter(refusal)) {
                    return;
                }
            }
            RawHttp.Response served = http.post(path(), KEY, utf8(Gateway.chatBody(Gateway.ROUTE, false)));
            assertEquals(200, served.status(), served::body);
        }
    }

    /** Refused from the Content-Length, before a byte of the body is sent; the server may then close. */
    @Test
    void aBodyOverTheLimitIsRefusedWith413() {
        try (RawHttp http = new RawHttp(base, 10_000)) {
            RawHttp.Response response = http.send(RawHttp.head(path(), KEY, 1024 * 1024 + 1, "")).read();
            assertEquals(413, response.status(), response::body);
            assertNotEquals("", response.body());
        }
    }
}
