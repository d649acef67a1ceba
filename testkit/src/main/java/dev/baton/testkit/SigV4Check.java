package dev.baton.testkit;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Checks a request's SigV4 signature as AWS does: rebuilds the request from what the client said it signed, signs it
 * again with AWS's own signer at the client's {@code x-amz-date}, and compares. Answers with Bedrock's own 403s.
 *
 * <p>Stateless and thread-safe.
 */
final class SigV4Check {

    private static final Pattern AUTHORIZATION = Pattern.compile("AWS4-HMAC-SHA256 Credential=([^/,\\s]+)/(\\d{8})/"
            + "([^/,\\s]+)/([^/,\\s]+)/aws4_request, ?SignedHeaders=([^,\\s]+), ?Signature=([0-9a-f]{64})");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    /** The only service a Bedrock runtime signature may be scoped to. */
    static final String SERVICE = "bedrock";
    /** How far a signature's time may be from the simulator's clock, as AWS allows. */
    static final java.time.Duration MAX_SKEW = java.time.Duration.ofMinutes(5);
    /** What the signer adds itself from the identity and the clock. */
    private static final Set<String> SIGNER_HEADERS = Set.of("host", "x-amz-date", "x-amz-security-token");

    static final String INVALID_SIGNATURE = "The request signature we calculated does not match the signature you"
            + " provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for"
            + " details.";

    private SigV4Check() {
    }

    /** Null when {@code request} is signed with {@code accessKeyId}'s {@code secret}; else the 403 Bedrock sends. */
    static Behavior.ApiError check(HttpInput.Request request, String accessKeyId, String secret) {
        String authorization = request.header("authorization");
        if (authorization == null) {
            return BedrockWire.error(403, "MissingAuthenticationTokenException", "Missing Authentication Token");
        }
        Matcher m = AUTHORIZATION.matcher(authorization);
        if (!m.matches()) {
            return BedrockWire.error(403, "UnrecognizedClientException",
                    "The security token included in the request is invalid.");
        }
        if (!m.group(1).equals(accessKeyId)) {
            return BedrockWire.error(403, "UnrecognizedClientException",
                    "The security token included in the request is invalid.");
        }
        if (!m.group(4).equals(SERVICE)) {
            return BedrockWire.error(403, "InvalidSignatureException",
                    "Credential should be scoped to correct service: '" + SERVICE + "'. ");
        }
        Instant signedAt;
        try {
            signedAt = Instant.from(AMZ_DATE.parse(String.valueOf(request.header("x-amz-date"))));
        } catch (DateTimeParseException e) {
            return BedrockWire.error(403, "IncompleteSignatureException",
                    "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
        }
        if (!request.header("x-amz-date").startsWith(m.group(2))) {
            return BedrockWire.error(403, "InvalidSignatureException",
                    "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP.");
        }
        Instant now = Instant.now();
        if (signedAt.isBefore(now.minus(MAX_SKEW)) || signedAt.isAfter(now.plus(MAX_SKEW))) {
            return BedrockWire.error(403, "InvalidSignatureException", "Signature expired: "
                    + request.header("x-amz-date") + " is now earlier than " + AMZ_DATE.format(now.minus(MAX_SKEW))
                    + " (" + AMZ_DATE.format(now) + " - 5 min.)");
        }
        SdkHttpRequest.Builder rebuilt = SdkHttpRequest.builder()
                .method(SdkHttpMethod.fromValue(request.method()))
                .uri(URI.create("http://" + request.header("host") + request.target()));
        for (String name : m.group(5).split(";")) {
            if (!SIGNER_HEADERS.contains(name)) {
                for (String value : request.headers().getOrDefault(name, List.of())) {
                    rebuilt.appendHeader(name, value);
                }
            }
        }
        String token = request.header("x-amz-security-token");
        AwsCredentialsIdentity identity = token == null ? AwsCredentialsIdentity.create(accessKeyId, secret)
                : AwsSessionCredentialsIdentity.create(accessKeyId, secret, token);
        String expected = AwsV4HttpSigner.create().sign(r -> r
                        .identity(identity)
                        .request(rebuilt.build())
                        .payload(ContentStreamProvider.fromUtf8String(request.body() == null ? "" : request.body()))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, m.group(4))
                        .putProperty(AwsV4HttpSigner.REGION_NAME, m.group(3))
                        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)))
                .request().firstMatchingHeader("Authorization").orElse("");
        return expected.equals(authorization) ? null : BedrockWire.error(403, "InvalidSignatureException",
                INVALID_SIGNATURE);
    }
}
