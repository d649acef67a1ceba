package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.eventstream.Message;
import software.amazon.awssdk.eventstream.MessageDecoder;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/** The Bedrock dialect over loopback: Converse JSON, ConverseStream frames, errors and SigV4 checking. */
class BedrockConverseTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private static final String MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final String BODY = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"Say hello\"}]}],"
            + "\"inferenceConfig\":{\"maxTokens\":100}}";
    private final Client client = new Client();

    private URI uri(String account, String action) {
        return URI.create(sim.bedrockBaseUrl(account) + "/model/" + MODEL.replace(":", "%3A") + "/" + action);
    }

    /** A request signed by AWS's signer with {@code keyId}/{@code secret}, as the SDKs sign Bedrock's. */
    private static HttpRequest signed(URI uri, String body, String keyId, String secret) {
        SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(uri)
                .putHeader("content-type", "application/json").build();
        SdkHttpRequest request = AwsV4HttpSigner.create().sign(r -> r
                .identity(AwsCredentialsIdentity.create(keyId, secret))
                .request(unsigned)
                .payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")).request();
        HttpRequest.Builder out = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        request.forEachHeader((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                values.forEach(v -> out.header(name, v));
            }
        });
        return out.build();
    }

    private static HttpRequest unsigned(URI uri, String body) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static List<Message> frames(byte[] body) {
        List<Message> frames = new ArrayList<>();
        new MessageDecoder(frames::add).feed(ByteBuffer.wrap(body));
        return frames;
    }

    private static JsonObject payload(Message frame) {
        return Client.json(new String(frame.getPayload(), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void converseAnswersTheModelOfThePath() throws Exception {
        sim.account("br").enqueue(Behavior.reply("Hi there"));

        HttpResponse<String> response = client.send(unsigned(uri("br", "converse"), BODY));

        assertEquals(200, response.statusCode());
        JsonObject answer = Client.json(response.body());
        assertEquals("Hi there", answer.getJsonObject("output").getJsonObject("message").getJsonArray("content")
                .getJsonObject(0).getString("text"));
        assertEquals("end_turn", answer.getString("stopReason"));
        assertEquals(2, answer.getJsonObject("usage").getInt("outputTokens"));
        assertTrue(response.headers().firstValue("x-amzn-RequestId").isPresent());
        assertEquals("/br/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
                sim.account("br").lastRequest().path());
    }

    @Test
    void converseStreamSendsEventStreamFrames() throws Exception {
        sim.account("br").enqueue(Behavior.reply("Hi there").thenToolCall("lookup", "{\"city\":\"Paris\"}"));

        HttpResponse<byte[]> response = client.http.send(unsigned(uri("br", "converse-stream"), BODY),
                HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, response.statusCode());
        assertEquals("application/vnd.amazon.eventstream", response.headers().firstValue("content-type").get());
        List<Message> frames = frames(response.body());
        List<String> types = frames.stream().map(f -> f.getHeaders().get(":event-type").getString()).toList();
        assertEquals(List.of("messageStart", "contentBlockDelta", "contentBlockDelta", "contentBlockStop",
                "contentBlockStart", "contentBlockDelta", "contentBlockDelta", "contentBlockDelta", "contentBlockStop",
                "messageStop", "metadata"), types);
        assertEquals("lookup", payload(frames.get(4)).getJsonObject("start").getJsonObject("toolUse")
                .getString("name"));
        assertEquals("tool_use", payload(frames.get(9)).getString("stopReason"));
        assertEquals("event", frames.get(0).getHeaders().get(":message-type").getString());
    }

    @Test
    void aStreamErrorIsAnExceptionFrame() throws Exception {
        sim.account("br").enqueue(Behavior.reply("a b c").streamErrorAfter(2, "throttlingException", null,
                "Too many requests, please wait before trying again."));

        HttpResponse<byte[]> response = client.http.send(unsigned(uri("br", "converse-stream"), BODY),
                HttpResponse.BodyHandlers.ofByteArray());

        List<Message> frames = frames(response.body());
        assertEquals(3, frames.size());
        Message last = frames.get(2);
        assertEquals("exception", last.getHeaders().get(":message-type").getString());
        assertEquals("throttlingException", last.getHeaders().get(":exception-type").getString());
        assertEquals("Too many requests, please wait before trying again.", payload(last).getString("message"));
    }

    @Test
    void errorsHaveBedrocksShape() throws Exception {
        sim.account("br").enqueue(Behavior.rateLimited(Duration.ofSeconds(3)), Behavior.modelNotFound(),
                Behavior.bedrockError(400, "ServiceQuotaExceededException", "quota"), Behavior.spendLimit(
                        "insufficient_quota"));

        HttpResponse<String> throttled = client.send(unsigned(uri("br", "converse"), BODY));
        HttpResponse<String> notFound = client.send(unsigned(uri("br", "converse"), BODY));
        HttpResponse<String> quota = client.send(unsigned(uri("br", "converse"), BODY));
        HttpResponse<String> unsupported = client.send(unsigned(uri("br", "converse"), BODY));

        assertEquals(429, throttled.statusCode());
        assertTrue(throttled.headers().firstValue("x-amzn-ErrorType").get().startsWith("ThrottlingException:"));
        assertEquals("Too many requests, please wait before trying again.",
                Client.json(throttled.body()).getString("message"));
        assertEquals("3", throttled.headers().firstValue("retry-after").get());
        assertEquals(404, notFound.statusCode());
        assertTrue(notFound.headers().firstValue("x-amzn-ErrorType").get().startsWith("ResourceNotFoundException"));
        assertEquals(400, quota.statusCode());
        assertEquals("quota", Client.json(quota.body()).getString("message"));
        assertEquals(500, unsupported.statusCode());
        assertTrue(unsupported.body().contains("Behavior.spendLimit() has no Amazon Bedrock Converse equivalent; it"
                + " only answers OpenAI chat completions"), unsupported.body());
    }

    @Test
    void aRequestWithoutMessagesIsAValidationException() throws Exception {
        HttpResponse<String> response = client.send(unsigned(uri("br", "converse"), "{}"));

        assertEquals(400, response.statusCode());
        assertTrue(response.headers().firstValue("x-amzn-ErrorType").get().startsWith("ValidationException"));
    }

    @Test
    void signaturesAreCheckedWithTheAccountsKey() throws Exception {
        sim.account("signed").awsCredentials("AKIDSIMULATOR1", "right-secret");

        HttpResponse<String> good = client.send(signed(uri("signed", "converse"), BODY, "AKIDSIMULATOR1",
                "right-secret"));
        HttpResponse<String> goodStream = client.send(signed(uri("signed", "converse-stream"), BODY,
                "AKIDSIMULATOR1", "right-secret"));
        HttpResponse<String> wrongSecret = client.send(signed(uri("signed", "converse"), BODY, "AKIDSIMULATOR1",
                "wrong-secret"));
        HttpResponse<String> unknownKey = client.send(signed(uri("signed", "converse"), BODY, "AKIDOTHER",
                "right-secret"));
        HttpResponse<String> none = client.send(unsigned(uri("signed", "converse"), BODY));

        assertEquals(200, good.statusCode(), good.body());
        assertEquals(200, goodStream.statusCode());
        assertEquals(403, wrongSecret.statusCode());
        assertTrue(wrongSecret.headers().firstValue("x-amzn-ErrorType").get().startsWith("InvalidSignatureException"));
        assertEquals(SigV4Check.INVALID_SIGNATURE, Client.json(wrongSecret.body()).getString("message"));
        assertEquals(403, unknownKey.statusCode());
        assertTrue(unknownKey.headers().firstValue("x-amzn-ErrorType").get().startsWith("UnrecognizedClientException"));
        assertEquals(403, none.statusCode());
        assertTrue(none.headers().firstValue("x-amzn-ErrorType").get()
                .startsWith("MissingAuthenticationTokenException"));
        assertEquals(5, sim.account("signed").requestCount());
    }

    @Test
    void aTamperedBodyFailsTheSignature() throws Exception {
        sim.account("signed").awsCredentials("AKIDSIMULATOR1", "right-secret");
        HttpRequest signedForOther = signed(uri("signed", "converse"), BODY, "AKIDSIMULATOR1", "right-secret");
        HttpRequest.Builder tampered = HttpRequest.newBuilder(signedForOther.uri())
                .POST(HttpRequest.BodyPublishers.ofString(BODY.replace("hello", "HELLO")));
        signedForOther.headers().map().forEach((name, values) -> values.forEach(v -> tampered.header(name, v)));

        HttpResponse<String> response = client.send(tampered.build());

        assertEquals(403, response.statusCode());
        assertFalse(response.body().contains("right-secret"));
    }

    @Test
    void cutAfterEndsTheBodyInsideTheStream() {
        sim.account("br").enqueue(Behavior.reply("a b c d").cutAfter(2));

        // the JDK client reports the unterminated chunked body
        org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> client.http.send(
                unsigned(uri("br", "converse-stream"), BODY), HttpResponse.BodyHandlers.ofByteArray()));
    }
}
