package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The simulated Google: its token endpoint, Vertex AI's token check and routes, and Google's error shapes. */
class GoogleCloudTest {

    private static final String CLAUDE = "claude-sonnet-4-5@20250929";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @TempDir
    Path dir;

    private final Client client = new Client();

    // ---------------------------------------------------------------- the token endpoint

    @Test
    void aServiceAccountsSignedAssertionGetsAShortLivedToken() throws Exception {
        sim.google().tokenLifetime(Duration.ofSeconds(30));
        JsonObject key = key(sim.google().writeServiceAccountKey(dir.resolve("key.json")));

        HttpResponse<String> response = token(assertion(key, GoogleCloud.CLOUD_PLATFORM, Instant.now()));

        assertEquals(200, response.statusCode());
        JsonObject token = json(response.body());
        assertTrue(token.getString("access_token").startsWith("ya29."));
        assertEquals(30, token.getInt("expires_in"));
        assertEquals("Bearer", token.getString("token_type"));
        assertEquals(sim.google().tokenUri(), key.getString("token_uri"));
        assertEquals("service_account", key.getString("type"));
    }

    @Test
    void aWrongSignatureAStaleAssertionOrAnotherScopeIsRefused() throws Exception {
        JsonObject trusted = key(sim.google().writeServiceAccountKey(dir.resolve("key.json")));
        JsonObject untrusted = key(sim.google().writeUntrustedServiceAccountKey(dir.resolve("other.json")));

        HttpResponse<String> forged = token(assertion(untrusted, GoogleCloud.CLOUD_PLATFORM, Instant.now()));
        HttpResponse<String> stale = token(assertion(trusted, GoogleCloud.CLOUD_PLATFORM,
                Instant.now().minusSeconds(7200)));
        HttpResponse<String> scope = token(assertion(trusted, "https://www.googleapis.com/auth/drive", Instant.now()));

        assertEquals(400, forged.statusCode());
        assertEquals("Invalid JWT Signature.", json(forged.body()).getString("error_description"));
        assertEquals("invalid_grant", json(stale.body()).getString("error"));
        assertEquals("invalid_scope", json(scope.body()).getString("error"));
    }

    // ---------------------------------------------------------------- Vertex AI

    @Test
    void vertexAnswersAMissingUnknownOrExpiredTokenWithGoogles401() throws Exception {
        String token = issue();
        String base = sim.vertexBaseUrl("v") + "/publishers/anthropic/models/" + CLAUDE + ":rawPredict";

        HttpResponse<String> missing = client.send(post(base, vertexBody(false), null));
        HttpResponse<String> unknown = client.send(post(base, vertexBody(false), "ya29.not-issued"));
        assertEquals(200, client.send(post(base, vertexBody(false), token)).statusCode());
        sim.google().expireTokens();
        HttpResponse<String> expired = client.send(post(base, vertexBody(false), token));

        for (HttpResponse<String> response : new HttpResponse[] {missing, unknown, expired}) {
            assertEquals(401, response.statusCode());
            JsonObject error = json(response.body()).getJsonObject("error");
            assertEquals(401, error.getInt("code"));
            assertEquals("UNAUTHENTICATED", error.getString("status"));
            assertTrue(response.headers().firstValue("www-authenticate").orElseThrow().startsWith("Bearer"));
        }
        assertEquals("ACCESS_TOKEN_EXPIRED", reason(expired));
        assertEquals("CREDENTIALS_MISSING", reason(missing));
        assertEquals(4, sim.account("v").requestCount(), "every request is logged");
    }

    @Test
    void claudeOnVertexRefusesAModelInTheBodyOrAnotherAnthropicVersion() throws Exception {
        String token = issue();
        String base = sim.vertexBaseUrl("v") + "/publishers/anthropic/models/" + CLAUDE + ":rawPredict";
        String withModel = vertexBody(false).replace("{", "{\"model\":\"" + CLAUDE + "\",");
        String otherVersion = vertexBody(false).replace("vertex-2023-10-16", "2023-06-01");

        assertEquals(400, client.send(post(base, withModel, token)).statusCode());
        assertEquals(400, client.send(post(base, otherVersion, token)).statusCode());
        HttpResponse<String> ok = client.send(post(base, vertexBody(false), token));
        assertEquals(200, ok.statusCode());
        assertEquals(CLAUDE, json(ok.body()).getString("model"));
        assertEquals("message", json(ok.body()).getString("type"));
    }

    @Test
    void claudeOnVertexStreamsAnthropicsEventsOnStreamRawPredict() throws Exception {
        String token = issue();
        String url = sim.vertexBaseUrl("v") + "/publishers/anthropic/models/" + CLAUDE + ":streamRawPredict";

        HttpResponse<String> response = client.send(post(url, vertexBody(true), token));

        assertEquals(200, response.statusCode());
        assertTrue(response.body().startsWith("event: message_start"));
        assertTrue(response.body().contains("event: message_stop"));
    }

    @Test
    void vertexOwnErrorsAreGooglesAndClaudesPassThrough() throws Exception {
        String token = issue();
        String claude = sim.vertexBaseUrl("v") + "/publishers/anthropic/models/" + CLAUDE + ":rawPredict";
        sim.account("v").enqueue(Behavior.rateLimited(Duration.ofSeconds(7)), Behavior.overloaded(),
                Behavior.modelNotFound());

        HttpResponse<String> quota = client.send(post(claude, vertexBody(false), token));
        HttpResponse<String> overloaded = client.send(post(claude, vertexBody(false), token));
        HttpResponse<String> notFound = client.send(post(claude, vertexBody(false), token));

        assertEquals(429, quota.statusCode());
        JsonObject error = json(quota.body()).getJsonObject("error");
        assertEquals("RESOURCE_EXHAUSTED", error.getString("status"));
        assertEquals("7s", error.getJsonArray("details").getJsonObject(0).getString("retryDelay"));
        assertEquals(529, overloaded.statusCode());
        assertEquals("overloaded_error", json(overloaded.body()).getJsonObject("error").getString("type"));
        assertEquals("NOT_FOUND", json(notFound.body()).getJsonObject("error").getString("status"));
        assertTrue(json(notFound.body()).getJsonObject("error").getString("message").contains(CLAUDE));
    }

    @Test
    void vertexsOpenAiEndpointWantsAPublisherModel() throws Exception {
        String token = issue();
        String url = sim.vertexBaseUrl("v") + "/endpoints/openapi/chat/completions";

        HttpResponse<String> bare = client.send(post(url, Client.chatBody("gemini-2.5-flash", false, false), token));
        HttpResponse<String> ok = client.send(post(url, Client.chatBody("google/gemini-2.5-flash", false, false),
                token));

        assertEquals(400, bare.statusCode());
        assertEquals("INVALID_ARGUMENT", json(bare.body()).getJsonObject("error").getString("status"));
        assertEquals(200, ok.statusCode());
        assertEquals("chat.completion", json(ok.body()).getString("object"));
    }

    @Test
    void gameDaysDriveTheTokenEndpointThroughTheControlApi() throws Exception {
        String token = issue();
        String url = sim.vertexBaseUrl("v") + "/endpoints/openapi/chat/completions";
        String control = "http://127.0.0.1:" + sim.simulator().port() + "/__sim/google/";

        assertEquals(200, client.send(HttpRequest.newBuilder(URI.create(control + "expire-tokens"))
                .POST(HttpRequest.BodyPublishers.noBody()).build()).statusCode());
        assertEquals(401, client.send(post(url, Client.chatBody("google/gemini-2.5-flash", false, false), token))
                .statusCode());
        assertEquals(200, client.send(post(control + "fail-token-requests", "{\"count\":1,\"status\":503}", null))
                .statusCode());
        JsonObject key = key(sim.google().writeServiceAccountKey(dir.resolve("game.json")));
        assertEquals(503, token(assertion(key, GoogleCloud.CLOUD_PLATFORM, Instant.now())).statusCode());
        assertEquals(200, token(assertion(key, GoogleCloud.CLOUD_PLATFORM, Instant.now())).statusCode());
        assertEquals(400, client.send(post(control + "fail-token-requests", "{\"count\":1,\"status\":200}", null))
                .statusCode());
    }

    // ---------------------------------------------------------------- the Gemini API

    @Test
    void theGeminiApiWrapsItsErrorsInAnArrayAndRefusesAWrongKeyWith400() throws Exception {
        sim.account("g").enqueue(Behavior.unauthorized(), Behavior.rateLimited(Duration.ofSeconds(3)));

        HttpResponse<String> key = client.complete(sim.geminiBaseUrl("g"), "gemini-2.5-flash");
        HttpResponse<String> quota = client.complete(sim.geminiBaseUrl("g"), "gemini-2.5-flash");
        HttpResponse<String> ok = client.complete(sim.geminiBaseUrl("g"), "gemini-2.5-flash");

        assertEquals(400, key.statusCode());
        JsonObject error = array(key.body()).getJsonObject(0).getJsonObject("error");
        assertEquals("INVALID_ARGUMENT", error.getString("status"));
        assertEquals("API_KEY_INVALID", error.getJsonArray("details").getJsonObject(0).getString("reason"));
        assertEquals(429, quota.statusCode());
        assertEquals("RESOURCE_EXHAUSTED", array(quota.body()).getJsonObject(0).getJsonObject("error")
                .getString("status"));
        assertEquals(200, ok.statusCode());
        assertFalse(ok.body().startsWith("["));
    }

    @Test
    void aBehaviourGoogleHasNoEquivalentForIsTheSimulatorsOwn500() throws Exception {
        sim.account("g").enqueue(Behavior.billingError());

        HttpResponse<String> response = client.complete(sim.geminiBaseUrl("g"), "gemini-2.5-flash");

        assertEquals(500, response.statusCode());
        assertEquals("unsupported-behavior", response.headers().firstValue("x-baton-simulator-error").orElseThrow());
    }

    // ---------------------------------------------------------------- helpers

    /** A token for the simulator's own service account. */
    private String issue() throws Exception {
        JsonObject key = key(sim.google().writeServiceAccountKey(dir.resolve("issue.json")));
        return json(token(assertion(key, GoogleCloud.CLOUD_PLATFORM, Instant.now())).body()).getString("access_token");
    }

    private HttpResponse<String> token(String assertion) throws Exception {
        String form = "grant_type=" + URLEncoder.encode("urn:ietf:params:oauth:grant-type:jwt-bearer",
                StandardCharsets.UTF_8) + "&assertion=" + assertion;
        return client.send(HttpRequest.newBuilder(URI.create(sim.google().tokenUri()))
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build());
    }

    /** The JWT a service account signs for the JWT-bearer grant, as Google's libraries build it. */
    private static String assertion(JsonObject key, String scope, Instant issued) throws Exception {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString(Json.createObjectBuilder().add("alg", "RS256").add("typ", "JWT")
                .add("kid", key.getString("private_key_id")).build().toString().getBytes(StandardCharsets.UTF_8));
        String claims = url.encodeToString(Json.createObjectBuilder().add("iss", key.getString("client_email"))
                .add("scope", scope).add("aud", key.getString("token_uri"))
                .add("iat", issued.getEpochSecond()).add("exp", issued.getEpochSecond() + 3600)
                .build().toString().getBytes(StandardCharsets.UTF_8));
        String pem = key.getString("private_key").replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey privateKey = KeyFactory.getInstance("RSA").generatePrivate(
                new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(privateKey);
        rsa.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return header + "." + claims + "." + url.encodeToString(rsa.sign());
    }

    private static HttpRequest post(String url, String body, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("authorization", "Bearer " + token);
        }
        return request.build();
    }

    private static String vertexBody(boolean stream) {
        return "{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":64,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";
    }

    private static String reason(HttpResponse<String> response) {
        return json(response.body()).getJsonObject("error").getJsonArray("details").getJsonObject(0)
                .getString("reason");
    }

    private static JsonObject key(Path file) throws Exception {
        return json(Files.readString(file));
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static JsonArray array(String text) {
        return Json.createReader(new StringReader(text)).readArray();
    }
}
