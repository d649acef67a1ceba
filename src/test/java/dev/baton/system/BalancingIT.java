package dev.baton.system;

import com.openai.core.http.HttpResponseFor;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Balancing through the endpoint of a real server: a 3:1 weighted route splits the traffic of the
 * official SDK about 75/25 and shows its shares to operators; a sticky route keeps each
 * {@code x-baton-session} on one connection.
 */
class BalancingIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-balancing.war")
                .addClasses(BalancingConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, BalancingConfig.class);
    }

    @Test
    void aWeightedRouteSplitsTheSdksRequestsThreeToOneAndOperatorsSeeTheShares() {
        var client = gateway.openAi();
        Map<String, Integer> counts = new HashMap<>();
        int n = 400;
        for (int i = 0; i < n; i++) {
            try (HttpResponseFor<ChatCompletion> response = client.chat().completions().withRawResponse()
                    .create(ChatCompletionCreateParams.builder().model("weighted").addUserMessage("Say hello.").build())) {
                ChatCompletion completion = response.parse();
                assertTrue(completion.choices().get(0).message().content().orElseThrow().startsWith("Hello from "));
                counts.merge(response.headers().values("x-baton-connection").get(0), 1, Integer::sum);
            }
        }
        // One attempt per request: a failover would also skew the split below.
        assertEquals(counts.get("primary"), simulator.account("primary").requestCount(), "primary's attempts");
        assertEquals(counts.get("standby"), simulator.account("standby").requestCount(), "standby's attempts");
        double primary = counts.getOrDefault("primary", 0) / (double) n;
        // 400 draws at 3:1 have a standard deviation of 2.2 points. Ten points is 4.6 of them: a fair
        // split fails about once in 250,000 runs, while an even (0.50) or fixed (1.00) one always fails.
        assertTrue(Math.abs(primary - 0.75) <= 0.10, "primary served " + primary + ": " + counts);

        JsonObject view = Gateway.json(admin("v1/connections/primary").body());
        JsonObject share = view.getJsonArray("shares").getValuesAs(JsonObject.class).stream()
                .filter(s -> "weighted".equals(s.getString("route"))).findFirst()
                .orElseThrow(() -> new AssertionError(view.toString()));
        assertEquals(0.75, share.getJsonNumber("share").doubleValue(), 1e-9, view::toString);
        assertEquals(1, share.getInt("tier"));
        assertEquals(0, view.getInt("in_flight"));
    }

    @Test
    void aStickyRouteKeepsEachSessionOnOneConnection() {
        Set<String> used = new HashSet<>();
        for (int s = 0; s < 12; s++) {
            Set<String> served = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                HttpRequest request = HttpRequest.newBuilder(gateway.uri("v1/chat/completions")).timeout(Gateway.TIMEOUT)
                        .header("Content-Type", "application/json").header("Authorization", "Bearer " + Gateway.KEY)
                        .header("x-baton-session", "conversation-" + s)
                        .POST(HttpRequest.BodyPublishers.ofString(Gateway.chatBody("sessions", false))).build();
                HttpResponse<String> response = gateway.send(request, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), response::body);
                served.add(header(response, "x-baton-connection"));
            }
            assertEquals(1, served.size(), "conversation-" + s + " was served by " + served);
            used.addAll(served);
        }
        assertEquals(Set.of("primary", "standby"), used, "twelve sessions spread over both connections");
    }

    private HttpResponse<String> admin(String path) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).timeout(Gateway.TIMEOUT)
                .header("Authorization", "Bearer " + Gateway.ADMIN_KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
