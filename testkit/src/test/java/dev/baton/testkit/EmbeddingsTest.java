package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The embeddings endpoints over real HTTP: deterministic vectors in both encodings, refusals and behaviours. */
class EmbeddingsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    private static HttpRequest.Builder post(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer sk-test-secret")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> embed(String account, String body) throws IOException, InterruptedException {
        return client.send(post(sim.baseUrl(account) + "/embeddings", body).build());
    }

    private static float[] floats(JsonArray array) {
        float[] vector = new float[array.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = Float.parseFloat(array.getJsonNumber(i).toString());
        }
        return vector;
    }

    private static float[] decode(String base64) {
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(base64)).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[bytes.remaining() / Float.BYTES];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = bytes.getFloat();
        }
        return vector;
    }

    private static double norm(float[] vector) {
        double sum = 0;
        for (float component : vector) {
            sum += (double) component * component;
        }
        return Math.sqrt(sum);
    }

    @Test
    void floatAndBase64CarryTheSameUnitVectorAsEmbeddingsVector() throws Exception {
        String input = "\"input\":[\"The food was delicious.\",\"Service was slow.\"]";

        HttpResponse<String> plain = embed("a", "{\"model\":\"text-embedding-3-small\"," + input + "}");
        HttpResponse<String> packed = embed("a", "{\"model\":\"text-embedding-3-small\"," + input
                + ",\"encoding_format\":\"base64\"}");

        assertEquals(200, plain.statusCode());
        JsonObject floats = Client.json(plain.body());
        JsonObject base64 = Client.json(packed.body());
        assertEquals("list", floats.getString("object"));
        assertEquals("text-embedding-3-small", floats.getString("model"));
        for (int i = 0; i < 2; i++) {
            JsonObject item = floats.getJsonArray("data").getJsonObject(i);
            assertEquals("embedding", item.getString("object"));
            assertEquals(i, item.getInt("index"));
            float[] fromText = floats(item.getJsonArray("embedding"));
            float[] fromBytes = decode(base64.getJsonArray("data").getJsonObject(i).getString("embedding"));
            assertEquals(1536, fromText.length);
            assertArrayEquals(fromText, fromBytes);
            assertArrayEquals(Embeddings.vector("text-embedding-3-small",
                    i == 0 ? "The food was delicious." : "Service was slow.", 1536), fromText);
            assertEquals(1.0, norm(fromText), 1e-5);
        }
        JsonObject usage = floats.getJsonObject("usage");
        assertTrue(usage.getInt("prompt_tokens") > 0);
        assertEquals(usage.getInt("prompt_tokens"), usage.getInt("total_tokens"));
    }

    @Test
    void twoAccountsAnswerTheSameBytesAndTheTextIsTheSameEveryTime() throws Exception {
        String body = "{\"model\":\"text-embedding-3-large\",\"input\":\"hello\",\"dimensions\":64}";

        String first = embed("a", body).body();
        String second = embed("b", body).body();
        String again = embed("a", body).body();

        assertEquals(first, second);
        assertEquals(first, again);
        assertTrue(!first.contains("E") && !first.contains("e-"), "plain notation: " + first);
    }

    @Test
    void dimensionsAreHonouredAndDefaultPerModel() throws Exception {
        JsonObject small = Client.json(embed("a", "{\"model\":\"text-embedding-3-small\",\"input\":\"x\","
                + "\"dimensions\":256}").body());
        JsonObject large = Client.json(embed("a", "{\"model\":\"text-embedding-3-large\",\"input\":\"x\"}").body());
        JsonObject ada = Client.json(embed("a", "{\"model\":\"text-embedding-ada-002\",\"input\":\"x\"}").body());

        float[] vector = floats(small.getJsonArray("data").getJsonObject(0).getJsonArray("embedding"));
        assertEquals(256, vector.length);
        assertEquals(1.0, norm(vector), 1e-5);
        assertEquals(3072, large.getJsonArray("data").getJsonObject(0).getJsonArray("embedding").size());
        assertEquals(1536, ada.getJsonArray("data").getJsonObject(0).getJsonArray("embedding").size());
        assertTrue(!java.util.Arrays.equals(Embeddings.vector("text-embedding-3-small", "x", 256),
                Embeddings.vector("text-embedding-3-large", "x", 256)), "the model is part of the seed");
    }

    @Test
    void tokenArraysAreInputsToo() throws Exception {
        JsonObject one = Client.json(embed("a", "{\"model\":\"m\",\"input\":[1,2,3],\"dimensions\":8}").body());
        JsonObject two = Client.json(embed("a", "{\"model\":\"m\",\"input\":[[1,2,3],[4]],\"dimensions\":8}").body());

        assertEquals(1, one.getJsonArray("data").size());
        assertEquals(3, one.getJsonObject("usage").getInt("prompt_tokens"));
        assertEquals(one.getJsonArray("data").getJsonObject(0), two.getJsonArray("data").getJsonObject(0));
        assertArrayEquals(Embeddings.vector("m", new int[] {4}, 8),
                floats(two.getJsonArray("data").getJsonObject(1).getJsonArray("embedding")));
        assertEquals(4, two.getJsonObject("usage").getInt("prompt_tokens"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"input\":\"\"", "\"input\":[]", "\"input\":[\"a\",\"\"]", "\"input\":[1,2.5]",
            "\"input\":[[1],[-1]]", "\"input\":[\"a\",[1]]", "\"input\":{\"text\":\"a\"}", "\"other\":1"})
    void badInputsAreRefusedNamingInputWithoutUsingABehaviour(String field) throws Exception {
        sim.account("a").enqueue(Behavior.serverError());

        HttpResponse<String> refused = embed("a", "{\"model\":\"text-embedding-3-small\"," + field + "}");

        assertEquals(400, refused.statusCode(), refused::body);
        JsonObject error = Client.json(refused.body()).getJsonObject("error");
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals("input", error.getString("param"));
        assertEquals(500, embed("a", "{\"model\":\"m\",\"input\":\"x\"}").statusCode(), "behaviour still queued");
    }

    @Test
    void moreThan2048InputsAreRefused() throws Exception {
        String inputs = String.join(",", java.util.Collections.nCopies(2049, "\"x\""));

        HttpResponse<String> refused = embed("a", "{\"model\":\"m\",\"input\":[" + inputs + "]}");
        HttpResponse<String> accepted = embed("a", "{\"model\":\"m\",\"dimensions\":2,\"input\":["
                + String.join(",", java.util.Collections.nCopies(2048, "\"x\"")) + "]}");

        assertEquals(400, refused.statusCode());
        assertEquals("input", Client.json(refused.body()).getJsonObject("error").getString("param"));
        assertEquals(200, accepted.statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"dimensions\":0", "\"dimensions\":-3", "\"dimensions\":1.5", "\"dimensions\":\"8\"",
            "\"dimensions\":1537", "\"encoding_format\":\"hex\"", "\"encoding_format\":1"})
    void badDimensionsOrEncodingsAreRefusedNamingThem(String field) throws Exception {
        HttpResponse<String> refused = embed("a", "{\"model\":\"text-embedding-3-small\",\"input\":\"x\"," + field
                + "}");

        assertEquals(400, refused.statusCode(), refused::body);
        assertEquals(field.substring(1, field.indexOf('"', 1)),
                Client.json(refused.body()).getJsonObject("error").getString("param"));
    }

    @Test
    void adaTakesNoDimensions() throws Exception {
        HttpResponse<String> refused = embed("a", "{\"model\":\"text-embedding-ada-002\",\"input\":\"x\","
                + "\"dimensions\":1536}");

        assertEquals(400, refused.statusCode());
        assertEquals("dimensions", Client.json(refused.body()).getJsonObject("error").getString("param"));
    }

    @Test
    void aRateLimitAnswersWithRetryAfterAndTheModelInTheMessage() throws Exception {
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofMillis(2500)));

        HttpResponse<String> limited = embed("a", "{\"model\":\"text-embedding-3-small\",\"input\":\"x\"}");

        assertEquals(429, limited.statusCode());
        assertEquals("3", limited.headers().firstValue("retry-after").orElseThrow());
        assertEquals("2500", limited.headers().firstValue("retry-after-ms").orElseThrow());
        JsonObject error = Client.json(limited.body()).getJsonObject("error");
        assertEquals("rate_limit_exceeded", error.getString("code"));
        assertTrue(error.getString("message").contains("text-embedding-3-small"));
    }

    @Test
    void transportFaultsApplyAndStreamOnlyBehavioursDoNot() throws Exception {
        sim.account("a").enqueue(Behavior.resetBeforeHeaders(), Behavior.ok().afterDelay(Duration.ofMillis(300)),
                Behavior.reply("ignored").cutAfter(0));
        String body = "{\"model\":\"m\",\"input\":\"x\",\"dimensions\":4}";

        assertThrows(IOException.class, () -> embed("a", body));
        long started = System.nanoTime();
        HttpResponse<String> delayed = embed("a", body);
        assertTrue(System.nanoTime() - started >= Duration.ofMillis(280).toNanos());
        HttpResponse<String> uncut = embed("a", body);

        assertEquals(200, delayed.statusCode());
        assertEquals(delayed.body(), uncut.body());
    }

    @Test
    void aStallHoldsTheAnswerUntilTheClientGivesUp() throws Exception {
        sim.account("a").enqueue(Behavior.noResponse());

        assertThrows(java.net.http.HttpTimeoutException.class, () -> client.send(post(sim.baseUrl("a")
                + "/embeddings", "{\"model\":\"m\",\"input\":\"x\"}").timeout(Duration.ofMillis(300)).build()));

        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(5)));
    }

    @Test
    void azureDeploymentsAnswerAsTheDeploymentAndTheRequestIsRecorded() throws Exception {
        String body = "{\"input\":\"hello\",\"dimensions\":16}";

        HttpResponse<String> answer = client.send(post(sim.simulator().azureBaseUrl("az")
                + "/openai/deployments/emb-small/embeddings?api-version=2024-10-21", body)
                .header("api-key", "azure-test-key").build());

        assertEquals(200, answer.statusCode(), answer::body);
        JsonObject json = Client.json(answer.body());
        assertEquals("emb-small", json.getString("model"));
        assertArrayEquals(Embeddings.vector("emb-small", "hello", 16),
                floats(json.getJsonArray("data").getJsonObject(0).getJsonArray("embedding")));
        RecordedRequest recorded = sim.account("az").lastRequest();
        assertEquals("/az/openai/deployments/emb-small/embeddings", recorded.path());
        assertEquals("2024-10-21", recorded.queryParameter("api-version").orElseThrow());
        assertEquals(body, recorded.body());
        HttpResponse<String> v1 = client.send(post(sim.simulator().azureBaseUrl("az") + "/openai/v1/embeddings",
                "{\"model\":\"emb-small\",\"input\":\"hello\",\"dimensions\":16}").build());
        assertEquals(json.getJsonArray("data"), Client.json(v1.body()).getJsonArray("data"));
    }

    @Test
    void theOpenAiSdkReadsTheVectors() {
        OpenAIClient sdk = OpenAIOkHttpClient.builder().baseUrl(sim.baseUrl("a")).apiKey("sk-test")
                .maxRetries(0).timeout(Duration.ofSeconds(5)).build();
        try {
            float[] expected = Embeddings.vector("text-embedding-3-small", "hello", 32);
            for (var format : List.of(EmbeddingCreateParams.EncodingFormat.BASE64,
                    EmbeddingCreateParams.EncodingFormat.FLOAT)) {
                CreateEmbeddingResponse response = sdk.embeddings().create(EmbeddingCreateParams.builder()
                        .model("text-embedding-3-small").input("hello").dimensions(32).encodingFormat(format).build());

                List<Float> vector = response.data().get(0).embedding();
                assertEquals(format.toString().toLowerCase(java.util.Locale.ROOT),
                        sim.account("a").lastRequest().json().getString("encoding_format"));
                assertEquals(32, vector.size());
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], vector.get(i));
                }
            }
        } finally {
            sdk.close();
        }
    }
}
