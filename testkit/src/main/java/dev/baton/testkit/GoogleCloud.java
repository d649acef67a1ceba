package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's side of the simulator: Vertex AI (Claude through {@code :rawPredict} and {@code :streamRawPredict}, other
 * models through the OpenAI-compatible {@code endpoints/openapi/chat/completions}), the Gemini API's OpenAI-compatible
 * endpoint, and an OAuth 2.0 token endpoint that Google's own auth library can be pointed at.
 *
 * <p>The token endpoint takes the JWT-bearer grant a service account signs
 * ({@link #writeServiceAccountKey(Path)} writes the key file, with this simulator as its {@code token_uri}), checks
 * the assertion's RS256 signature, issuer, audience, scope and times, and issues an access token that lives
 * {@link #tokenLifetime(Duration)}. The Vertex paths answer a missing, unknown or expired token with Google's 401
 * {@code UNAUTHENTICATED}; the Gemini API paths, like the OpenAI ones, take any key (script
 * {@link Behavior#unauthorized()} to refuse it).
 *
 * <p>Paths, below {@code http://127.0.0.1:{port}}:
 * <ul>
 *   <li>{@code /{account}/v1/projects/{project}/locations/{location}/publishers/anthropic/models/{model}:rawPredict}
 *   (and {@code :streamRawPredict}), {@code /{account}/v1/projects/{project}/locations/{location}/endpoints/openapi/
 *   chat/completions}: {@link ProviderSimulator#vertexBaseUrl(String)} is the part before {@code /publishers};</li>
 *   <li>{@code /{account}/v1beta/openai/chat/completions}: {@link ProviderSimulator#geminiBaseUrl(String)};</li>
 *   <li>{@code /__google/token}: the token endpoint.</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class GoogleCloud {

    /** The scope a Vertex AI token must have been granted. */
    public static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
    /** The service account the key files name. */
    public static final String CLIENT_EMAIL = "baton-simulator@sim-project.iam.gserviceaccount.com";
    static final String TOKEN_PATH = "/__google/token";

    private static final Duration DEFAULT_LIFETIME = Duration.ofHours(1);
    private static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    private static final String ACCOUNT = "([A-Za-z0-9._~-]+)";
    private static final Pattern VERTEX = Pattern.compile("/" + ACCOUNT + "/v1/projects/([^/]+)/locations/([^/]+)/"
            + "(?:publishers/anthropic/models/([^/:]+):(rawPredict|streamRawPredict)|endpoints/openapi/chat/completions)");
    private static final Pattern GEMINI = Pattern.compile("/" + ACCOUNT + "/v1beta/openai/chat/completions");
    private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

    private final ProviderSimulator simulator;
    private final AtomicLong completions = new AtomicLong();
    private final Map<String, Instant> tokens = new ConcurrentHashMap<>();
    private final AtomicInteger tokenRequests = new AtomicInteger();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile int failureStatus;
    private volatile Duration tokenLifetime = DEFAULT_LIFETIME;
    private volatile Duration tokenDelay = Duration.ZERO;
    private volatile String lastToken;
    private KeyPair trusted;
    private final String keyId = randomHex(20);

    GoogleCloud(ProviderSimulator simulator) {
        this.simulator = simulator;
    }

    // ---------------------------------------------------------------- for tests and game days

    /** The token endpoint, as key files name it in {@code token_uri}. */
    public String tokenUri() {
        return "http://127.0.0.1:" + simulator.port() + TOKEN_PATH;
    }

    /**
     * Writes a service-account key file ({@code "type": "service_account"}) whose key this simulator trusts and whose
     * {@code token_uri} is this simulator's token endpoint; readable by the owner only.
     */
    public Path writeServiceAccountKey(Path file) {
        return write(file, serviceAccountKey(trustedKeys(), keyId));
    }

    /** A key file like {@link #writeServiceAccountKey(Path)}'s, but signed with a key this simulator does not know. */
    public Path writeUntrustedServiceAccountKey(Path file) {
        return write(file, serviceAccountKey(newKeyPair(), randomHex(20)));
    }

    /** How long the access tokens issued from now on live ({@code expires_in}); initially one hour. */
    public GoogleCloud tokenLifetime(Duration lifetime) {
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("a token lifetime must be positive, was " + lifetime);
        }
        tokenLifetime = lifetime;
        return this;
    }

    /** The next {@code count} token requests fail with {@code status}: 400 {@code invalid_grant}, or a 5xx. */
    public GoogleCloud failTokenRequests(int count, int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status must be between 400 and 599, was " + status);
        }
        failureStatus = status;
        failuresLeft.set(count);
        return this;
    }

    /** Every token request waits this long before its answer (a slow token endpoint). */
    public GoogleCloud tokenDelay(Duration delay) {
        tokenDelay = delay;
        return this;
    }

    /** Ends the life of every token issued so far: Vertex answers them with 401 {@code ACCESS_TOKEN_EXPIRED}. */
    public GoogleCloud expireTokens() {
        tokens.replaceAll((token, expiry) -> Instant.EPOCH);
        return this;
    }

    /** How many requests reached the token endpoint. */
    public int tokenRequests() {
        return tokenRequests.get();
    }

    /** Waits until at least {@code count} token requests arrived, for at most {@code timeout}; whether they did. */
    public boolean awaitTokenRequests(int count, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (tokenRequests.get() < count) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** The access token issued last, or null: for tests that check a token never leaks into a message. */
    public String lastIssuedToken() {
        return lastToken;
    }

    /** Back to a one-hour lifetime, no delay and no failing token requests; issued tokens stay valid. */
    void reset() {
        tokenLifetime = DEFAULT_LIFETIME;
        tokenDelay = Duration.ZERO;
        failuresLeft.set(0);
        tokenRequests.set(0);
    }

    // ---------------------------------------------------------------- serving

    /** Whether {@code path} is one of Google's. */
    boolean handles(String path) {
        return path.equals(TOKEN_PATH) || VERTEX.matcher(path).matches() || GEMINI.matcher(path).matches();
    }

    /** Answers one request on a path {@link #handles} accepted; returns whether the connection may carry another. */
    boolean serve(HttpInput.Request request, Connection connection) throws IOException {
        String path = request.path();
        if (!request.method().equals("POST")) {
            send(connection, 405, Map.of(), GoogleErrors.body(GoogleErrors.google(405, "UNIMPLEMENTED", null,
                    m -> "Method not allowed: " + request.method(), null), null, "googleapis.com").build().toString());
            return true;
        }
        if (path.equals(TOKEN_PATH)) {
            return token(request, connection);
        }
        Matcher gemini = GEMINI.matcher(path);
        if (gemini.matches()) {
            Account account = simulator.account(gemini.group(1));
            RecordedRequest recorded = record(account, request, connection);
            JsonObject body = JsonSupport.parseObject(recorded.body());
            return complete(GoogleOpenAiWire.GEMINI, account, recorded, body, body, connection);
        }
        Matcher vertex = VERTEX.matcher(path);
        vertex.matches();
        Account account = simulator.account(vertex.group(1));
        RecordedRequest recorded = record(account, request, connection);
        String problem = tokenProblem(recorded.header("authorization").orElse(null));
        if (problem != null) {
            account.admit(recorded, null);
            Behavior.ApiError error = GoogleErrors.unauthenticated(problem);
            send(connection, 401, Map.of("www-authenticate", "Bearer realm=\"https://accounts.google.com/\""
                    + (problem.equals("CREDENTIALS_MISSING") ? "" : ", error=\"invalid_token\"")),
                    GoogleErrors.body(error, null, "aiplatform.googleapis.com").build().toString());
            return true;
        }
        JsonObject body = JsonSupport.parseObject(recorded.body());
        String model = vertex.group(4);
        if (model == null) {
            return complete(GoogleOpenAiWire.VERTEX, account, recorded, body, body, connection);
        }
        boolean streamMethod = vertex.group(5).equals("streamRawPredict");
        if (body != null && body.getBoolean("stream", false) != streamMethod) {
            account.admit(recorded, null);
            Playback.refuse(VertexAnthropicWire.INSTANCE, Behavior.ApiError.of(400, "invalid_request_error", null, null,
                    "stream: must be " + streamMethod + " on :" + vertex.group(5)), connection);
            return true;
        }
        JsonObject call = body == null ? null
                : JSON.createObjectBuilder(body).add("model", model).add("stream", streamMethod).build();
        return complete(VertexAnthropicWire.INSTANCE, account, recorded, body, call, connection);
    }

    /** {@code body} is checked as sent; {@code callBody} (the body with the URL's model) describes the call. */
    private boolean complete(WireFormat wire, Account account, RecordedRequest recorded, JsonObject body,
            JsonObject callBody, Connection connection) throws IOException {
        Behavior.ApiError rejection = wire.reject(body);
        if (rejection != null) {
            account.admit(recorded, null);
            Playback.refuse(wire, rejection, connection);
            return true;
        }
        WireFormat.Call call = wire.call(callBody, account.name(), completions.incrementAndGet());
        Behavior behavior = account.admit(recorded, call.model());
        return Playback.perform(behavior, wire, call, connection);
    }

    private static RecordedRequest record(Account account, HttpInput.Request request, Connection connection) {
        RecordedRequest recorded = RecordedRequest.arrived(account.name(), request.method(), request.path(),
                request.query(), request.headers(), request.body());
        connection.answering(recorded);
        return recorded;
    }

    /** Null for a token this simulator issued and that still lives; else the ErrorInfo reason Google gives. */
    private String tokenProblem(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return "CREDENTIALS_MISSING";
        }
        Instant expiry = tokens.get(authorization.substring(7).strip());
        if (expiry == null) {
            return "ACCESS_TOKEN_TYPE_UNSUPPORTED";
        }
        return Instant.now().isBefore(expiry) ? null : "ACCESS_TOKEN_EXPIRED";
    }

    // ---------------------------------------------------------------- the token endpoint

    private boolean token(HttpInput.Request request, Connection connection) throws IOException {
        tokenRequests.incrementAndGet();
        connection.pause(tokenDelay);
        if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            int status = failureStatus;
            return oauthError(connection, status, status < 500 ? "invalid_grant" : "internal_failure",
                    status < 500 ? "Invalid grant: account not found" : "Backend Error");
        }
        Map<String, String> form = form(request.body());
        if (!JWT_BEARER.equals(form.get("grant_type"))) {
            return oauthError(connection, 400, "unsupported_grant_type", "Invalid grant_type: "
                    + form.getOrDefault("grant_type", ""));
        }
        String assertion = form.get("assertion");
        if (assertion == null) {
            return oauthError(connection, 400, "invalid_request", "Missing required parameter: assertion");
        }
        String problem = checkAssertion(assertion);
        if (problem != null) {
            return oauthError(connection, 400, problem.startsWith("Invalid OAuth scope") ? "invalid_scope"
                    : "invalid_grant", problem);
        }
        String token = "ya29.sim-" + randomHex(32);
        Duration lifetime = tokenLifetime;
        tokens.put(token, Instant.now().plus(lifetime));
        lastToken = token;
        send(connection, 200, Map.of("cache-control", "no-cache, no-store, max-age=0, must-revalidate"),
                JSON.createObjectBuilder().add("access_token", token)
                        .add("expires_in", Math.max(1, lifetime.toSeconds()))
                        .add("token_type", "Bearer").build().toString());
        return true;
    }

    /** Null when the JWT is one this simulator's service account signed, for this endpoint, now; else Google's words. */
    private String checkAssertion(String jwt) {
        String[] parts = jwt.split("\\.", -1);
        if (parts.length != 3) {
            return "Invalid JWT: malformed token";
        }
        JsonObject header;
        JsonObject claims;
        byte[] signature;
        try {
            header = JsonSupport.parseObject(new String(BASE64URL.decode(parts[0]), StandardCharsets.UTF_8));
            claims = JsonSupport.parseObject(new String(BASE64URL.decode(parts[1]), StandardCharsets.UTF_8));
            signature = BASE64URL.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return "Invalid JWT: malformed token";
        }
        if (header == null || claims == null || !"RS256".equals(text(header, "alg"))) {
            return "Invalid JWT: malformed token";
        }
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(trustedKeys().getPublic());
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!rsa.verify(signature)) {
                return "Invalid JWT Signature.";
            }
        } catch (GeneralSecurityException e) {
            return "Invalid JWT Signature.";
        }
        if (!CLIENT_EMAIL.equals(text(claims, "iss"))) {
            return "Invalid grant: account not found";
        }
        String audience = text(claims, "aud");
        if (!tokenUri().equals(audience) && !"https://oauth2.googleapis.com/token".equals(audience)) {
            return "Invalid JWT: Failed audience check.";
        }
        String scope = text(claims, "scope");
        if (scope == null || !Set.of(scope.split(" ")).contains(CLOUD_PLATFORM)) {
            return "Invalid OAuth scope or ID token audience provided.";
        }
        long now = Instant.now().getEpochSecond();
        if (!(claims.get("iat") instanceof JsonNumber iat) || !(claims.get("exp") instanceof JsonNumber exp)
                || iat.longValue() > now + 60 || exp.longValue() < now || exp.longValue() - iat.longValue() > 3600) {
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check"
                    + " your iat and exp values in the JWT claim.";
        }
        return null;
    }

    private static boolean oauthError(Connection connection, int status, String error, String description)
            throws IOException {
        send(connection, status, Map.of(), JSON.createObjectBuilder().add("error", error)
                .add("error_description", description).build().toString());
        return true;
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    // ---------------------------------------------------------------- keys

    private synchronized KeyPair trustedKeys() {
        if (trusted == null) {
            trusted = newKeyPair();
        }
        return trusted;
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make RSA keys", e);
        }
    }

    private String serviceAccountKey(KeyPair keys, String privateKeyId) {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("type", "service_account");
        fields.put("project_id", "sim-project");
        fields.put("private_key_id", privateKeyId);
        fields.put("private_key", pem);
        fields.put("client_email", CLIENT_EMAIL);
        fields.put("client_id", "100000000000000000001");
        fields.put("auth_uri", "https://accounts.google.com/o/oauth2/auth");
        fields.put("token_uri", tokenUri());
        fields.put("universe_domain", "googleapis.com");
        var json = JSON.createObjectBuilder();
        fields.forEach(json::add);
        return json.build().toString();
    }

    private static Path write(Path file, String json) {
        try {
            Files.writeString(file, json, StandardCharsets.UTF_8);
            try {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the file keeps the default permissions
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the service-account key " + file, e);
        }
    }

    private static void send(Connection connection, int status, Map<String, String> headers, String body)
            throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("content-type", "application/json; charset=UTF-8");
        all.putAll(headers);
        connection.send(status, all, body.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(JsonObject object, String name) {
        return object.get(name) instanceof JsonString s ? s.getString() : null;
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    @Override
    public String toString() {
        return "GoogleCloud[" + tokenUri() + ", tokens issued: " + tokens.size() + "]";
    }
}
