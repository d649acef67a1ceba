package dev.baton.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControlApiTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final Client client = new Client();

    @Test
    void aScriptPostedOverHttpAnswersTheNextRequests() throws Exception {
        HttpResponse<String> posted = control("POST", "accounts/a/script", """
                {"behaviors":[
                  {"type":"rate_limited","retry_after_ms":2000,"headers":{"x-should-retry":"false"}},
                  {"type":"reply","text":"scripted hello","delay_ms":10}
                ]}""");

        assertEquals(200, posted.statusCode(), posted::body);
        HttpResponse<String> limited = client.complete(sim.baseUrl("a"), "gpt-4o");
        assertEquals(429, limited.statusCode());
        assertEquals("2", limited.headers().firstValue("retry-after").orElseThrow());
        assertEquals("false", limited.headers().firstValue("x-should-retry").orElseThrow());
        assertTrue(client.complete(sim.baseUrl("a"), "gpt-4o").body().contains("scripted hello"));
    }

    @Test
    void theDefaultAndAFlapCanBeSetOverHttp() throws Exception {
        assertEquals(200, control("PUT", "accounts/a/default", "{\"type\":\"spend_limit\",\"code\":\"insufficient_quota\"}")
                .statusCode());
        assertEquals(200, control("POST", "accounts/b/fail-for",
                "{\"duration_ms\":60000,\"behavior\":{\"type\":\"overloaded\"}}").statusCode());

        assertEquals(429, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode());
        assertEquals(503, client.complete(sim.baseUrl("b"), "gpt-4o").statusCode());
    }

    @Test
    void theRequestLogOverHttpListsRequestsWithoutHeaderValues() throws Exception {
        client.send(Client.chat(sim.baseUrl("a"), Client.chatBody("gpt-4o", true, false)).build());

        HttpResponse<String> response = control("GET", "accounts/a/requests", null);

        assertEquals(200, response.statusCode());
        assertFalse(response.body().contains("sk-test-secret"));
        JsonArray requests = Client.json("{\"r\":" + response.body() + "}").getJsonArray("r");
        JsonObject only = requests.getJsonObject(0);
        assertEquals(1, requests.size());
        assertEquals("POST", only.getString("method"));
        assertEquals("/a/v1/chat/completions", only.getString("path"));
        assertEquals("gpt-4o", only.getString("model"));
        assertTrue(only.getBoolean("stream"));
        assertFalse(only.getString("received_at").isEmpty());
    }

    @Test
    void toolCallsAndAnthropicErrorsCanBeScriptedOverHttp() throws Exception {
        HttpResponse<String> posted = control("POST", "accounts/a/script", """
                {"behaviors":[
                  {"type":"tool_call","name":"get_weather","arguments":{"city":"Oslo"}},
                  {"type":"tool_call","name":"get_weather","arguments":"{\\"city\\":\\"Bergen\\"}","text":"Checking."},
                  {"type":"billing_error"},
                  {"type":"enforced_spend_limit"},
                  {"type":"usage_limit_reached"},
                  {"type":"workspace_usage_limit_reached"},
                  {"type":"anthropic_error","status":413,"error_type":"request_too_large","message":"too big"}
                ]}""");

        assertEquals(200, posted.statusCode(), posted::body);
        JsonObject first = Client.json(client.message(sim.baseUrl("a"), "claude-sonnet-4-5").body());
        assertEquals("Oslo", first.getJsonArray("content").getJsonObject(0).getJsonObject("input").getString("city"));
        JsonObject second = Client.json(client.complete(sim.baseUrl("a"), "gpt-4o").body())
                .getJsonArray("choices").getJsonObject(0).getJsonObject("message");
        assertEquals("Checking.", second.getString("content"));
        assertEquals("{\"city\":\"Bergen\"}", second.getJsonArray("tool_calls").getJsonObject(0)
                .getJsonObject("function").getString("arguments"));
        assertEquals(402, client.message(sim.baseUrl("a"), "claude-sonnet-4-5").statusCode());
        assertEquals(429, client.message(sim.baseUrl("a"), "claude-sonnet-4-5").statusCode());
        assertEquals(400, client.message(sim.baseUrl("a"), "claude-sonnet-4-5").statusCode());
        assertTrue(Client.json(client.message(sim.baseUrl("a"), "claude-sonnet-4-5").body()).getJsonObject("error")
                .getString("message").startsWith("You have reached your specified workspace API usage limits"));
        assertEquals(413, client.message(sim.baseUrl("a"), "claude-sonnet-4-5").statusCode());
    }

    @Test
    void resetOverHttpClearsEveryAccount() throws Exception {
        sim.account("a").setDefault(Behavior.serverError());

        assertEquals(200, control("POST", "reset", "").statusCode());

        assertEquals(200, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode());
    }

    @Test
    void bedrockSignaturesAndErrorsCanBeScriptedOverHttp() throws Exception {
        HttpResponse<String> set = control("PUT", "accounts/br/aws-credentials",
                "{\"access_key_id\":\"AKIDGAMEDAY00001\",\"secret_access_key\":\"game-day-secret\"}");
        assertEquals(200, set.statusCode(), set::body);
        assertFalse(set.body().contains("game-day-secret"));
        assertEquals(400, control("PUT", "accounts/br/aws-credentials", "{\"access_key_id\":\"A\"}").statusCode());
        assertEquals(200, control("POST", "accounts/c/script", "{\"behaviors\":[{\"type\":\"bedrock_error\","
                + "\"status\":400,\"error_type\":\"ServiceQuotaExceededException\",\"message\":\"quota\"}]}")
                .statusCode());

        URI unsigned = URI.create(sim.bedrockBaseUrl("br") + "/model/amazon.nova-pro-v1%3A0/converse");
        HttpResponse<String> refused = client.send(HttpRequest.newBuilder(unsigned)
                .POST(HttpRequest.BodyPublishers.ofString("{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"Hi\"}]}]}"))
                .build());
        HttpResponse<String> quota = client.send(HttpRequest.newBuilder(URI.create(sim.bedrockBaseUrl("c")
                + "/model/amazon.nova-pro-v1%3A0/converse"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"Hi\"}]}]}"))
                .build());

        assertEquals(403, refused.statusCode());
        JsonObject logged = Client.json("{\"r\":" + control("GET", "accounts/br/requests", null).body() + "}")
                .getJsonArray("r").getJsonObject(0);
        assertEquals("amazon.nova-pro-v1:0", logged.getString("model"));
        assertFalse(logged.getBoolean("stream"));
        assertEquals(400, quota.statusCode());
        assertTrue(quota.headers().firstValue("x-amzn-errortype").orElseThrow().startsWith("ServiceQuotaExceeded"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "{\"behaviors\":[{\"type\":\"ok\"},{\"type\":\"status\",\"status\":\"500\",\"body\":\"x\"}]} | behaviors[1].status",
        "{\"behaviors\":[{\"type\":\"explode\"}]}                                                  | behaviors[0].type",
        "{\"behaviors\":[{\"type\":\"ok\",\"delay\":5}]}                                           | behaviors[0].delay",
        "{\"behaviors\":[{\"type\":\"spend_limit\",\"code\":\"nope\"}]}                            | behaviors[0].code",
        "{\"behaviors\":[{\"type\":\"status\",\"status\":42,\"body\":\"x\"}]}                      | behaviors[0].status",
        "{\"behaviors\":[{\"type\":\"ok\",\"delay_ms\":-1}]}                                       | behaviors[0].delay_ms",
        "{\"behaviors\":[{\"type\":\"ok\",\"headers\":{\"x-a\":1}}]}                               | behaviors[0].headers.x-a",
        "{\"behaviors\":[{\"type\":\"reply\"}]}                                                    | behaviors[0].text",
        "{\"behaviors\":{}}                                                                        | behaviors",
        "not json                                                                                  | body",
        "{\"behaviors\":[{\"type\":\"tool_call\",\"name\":\"f g\",\"arguments\":{}}]}                 | behaviors[0].name",
        "{\"behaviors\":[{\"type\":\"tool_call\",\"name\":\"f\",\"arguments\":\"[]\"}]}               | behaviors[0].arguments",
        "{\"behaviors\":[{\"type\":\"tool_call\",\"name\":\"f\",\"arguments\":1}]}                    | behaviors[0].arguments",
    })
    void anInvalidBehaviorIsRefusedWith400NamingTheField(String body, String field) throws Exception {
        HttpResponse<String> response = control("POST", "accounts/a/script", body);

        assertEquals(400, response.statusCode(), response::body);
        JsonObject error = Client.json(response.body()).getJsonObject("error");
        assertEquals(field, error.getString("param"));
        assertTrue(error.getString("message").startsWith(field), error.getString("message"));
        assertEquals(200, client.complete(sim.baseUrl("a"), "gpt-4o").statusCode(), "nothing may be enqueued");
    }

    private HttpResponse<String> control(String method, String path, String body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body);
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sim.simulator().port() + "/__sim/" + path))
                .method(method, publisher).build());
    }
}
