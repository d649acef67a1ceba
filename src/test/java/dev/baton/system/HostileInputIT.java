package dev.baton.system;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import dev.baton.testkit.Behavior;

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
    // ---------------------------------------------------------------- refused up front, and what callers read

    static Stream<Object[]> unbillable() {
        String hi = "[{\"role\":\"user\",\"content\":\"Hi\"}]";
        return Stream.of(
                new Object[] {chat(hi).replaceFirst("\\{", "{\"n\":1000,"), "n"},
                new Object[] {chat(hi).replaceFirst("\\{", "{\"n\":0,"), "n"},
                new Object[] {chat(hi).replaceFirst("\\{", "{\"max_tokens\":-5,"), "max_tokens"},
                new Object[] {chat(hi).replaceFirst("\\{", "{\"max_completion_tokens\":1e12,"), "max_completion_tokens"},
                new Object[] {chat(hi).replaceFirst("\\{", "{\"max_tokens\":\"lots\","), "max_tokens"});
    }

    @ParameterizedTest
    @MethodSource("unbillable")
    void whatNoProviderShouldBeBilledForIsRefusedNamingTheParam(String body, String param) {
        RawHttp.Response response = refused(utf8(body));
        assertEquals(400, response.status(), response::body);
        var error = Gateway.json(response.body()).getJsonObject("error");
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals(param, error.getString("param"));
        assertEquals(0, simulator.account("primary").requestCount(), "no provider was called");
    }

    @Test
    void aTenKilobyteModelNameIsRefusedRepeatingOnlyItsStart() {
        String name = "gpt-" + "x".repeat(10_000);
        RawHttp.Response response = refused(utf8(Gateway.chatBody(name, false)));
        assertEquals(404, response.status(), response::body);
        String message = Gateway.json(response.body()).getJsonObject("error").getString("message");
        assertTrue(message.startsWith("The model `gpt-" + "x".repeat(60) + "…` (10004 characters) is longer than"),
                message);
        assertTrue(response.body().length() < 1_000, () -> response.body().length() + " characters");
    }

    @Test
    void aMemberGivenTwiceIsNamed() {
        RawHttp.Response response = refused(utf8("{\"model\":\"demo\",\"model\":\"demo\",\"messages\":[]}"));
        assertEquals(400, response.status(), response::body);
        var error = Gateway.json(response.body()).getJsonObject("error");
        assertEquals("The request body names the member 'model' twice in one object; each member may appear once.",
                error.getString("message"));
        assertEquals("model", error.getString("param"));
    }

    /**
     * A provider message naming the account (OpenAI's organization and project, Anthropic's organization UUID)
     * reaches the caller masked, in the error and in the record its key reads; the admin key reads it whole.
     */
    @Test
    void aProviderMessageWithTheAccountsIdsReachesTheCallerMasked() {
        String org = "org-Zx8k2LmQ4pRt7VwY1nB3cD5f";
        String anthropicOrg = "6a3b1f0e-2c4d-4e5f-8a9b-0c1d2e3f4a5b";
        try {
            simulator.account("primary").setDefault(Behavior.openAiError(429, "tokens", "rate_limit_exceeded",
                    "Rate limit reached for gpt-5.4-mini in organization " + org + " on tokens per min (TPM): Limit"
                            + " 30000, Used 29876, Requested 512. Please try again in 776ms."));
            simulator.account("claude").setDefault(Behavior.anthropicError(429, "rate_limit_error",
                    "This request would exceed the rate limit for your organization (" + anthropicOrg + ") of 50,000"
                            + " input tokens per minute."));

            var response = gateway.postChat(Gateway.chatBody("mixed", false));

            assertEquals(429, response.statusCode(), response::body);
            String message = Gateway.json(response.body()).getJsonObject("error").getString("message");
            assertFalse(message.contains(org) || message.contains(anthropicOrg), message);
            assertTrue(message.contains("in organization org-<hidden> on tokens per min (TPM): Limit 30000"), message);
            assertTrue(message.contains("the rate limit for your organization (<hidden>) of 50,000"), message);
            String id = Gateway.header(response, "x-request-id");
            String asCaller = gateway.record(id).toString();
            assertFalse(asCaller.contains(org) || asCaller.contains(anthropicOrg), asCaller);
            HttpResponse<String> asAdmin = asAdmin("GET", "v1/requests/" + id);
            assertTrue(asAdmin.body().contains(org) && asAdmin.body().contains(anthropicOrg), asAdmin::body);
        } finally {
            simulator.reset();
            for (String parked : List.of("primary", "claude")) {
                HttpResponse<String> restored = asAdmin("POST", "v1/connections/" + parked + "/restore");
                assertEquals(200, restored.statusCode(), restored::body);
            }
        }
    }

    private HttpResponse<String> asAdmin(String method, String path) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).timeout(Gateway.TIMEOUT)
                .header("Authorization", "Bearer " + Gateway.ADMIN_KEY)
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
