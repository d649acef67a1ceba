package dev.baton.system;

import dev.baton.testkit.Behavior;


import jakarta.json.JsonObject;


import java.net.http.HttpResponse;
import java.util.List;

import org.jboss.arquillian.container.test.api.Deployment;



import org.jboss.shrinkwrap.api.spec.WebArchive;


import org.junit.jupiter.api.Test;


import static dev.baton.system.Gateway.attempts;
import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A spend-limited primary: the demo route keeps the default {@code on.spend_limit=stop}, so the caller gets the 429 at
 * once, told that retrying will not help. It parks the primary for 15 minutes, hence a deployment of its own.
 */
class SpendLimitIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it.war");
    }

    @Test
    void answers429ProviderSpendLimitWithoutRetryAfterAndTriesNothingElse() {
        simulator.account("primary").setDefault(Behavior.spendLimit("insufficient_quota"));

        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));

        assertEquals(429, response.statusCode(), response::body);
        JsonObject error = Gateway.json(response.body()).getJsonObject("error");
        assertEquals("provider_spend_limit", error.getString("code"), response::body);
        assertEquals("insufficient_quota", error.getString("type"), response::body);
        assertEquals("false", header(response, "x-should-retry"));
        Gateway.assertHeaderAbsent(response, "retry-after");
        assertEquals(1, simulator.account("primary").requestCount());
        assertEquals(0, simulator.account("standby").requestCount());

        JsonObject record = gateway.record(header(response, "x-request-id"));
        assertEquals("error", record.getString("status"));
        assertEquals(429, record.getInt("http_status"));
        assertEquals("provider_spend_limit", record.getString("error_code"));
        assertEquals(List.of("primary:429:spend_limit"), attempts(record));
        assertEquals("insufficient_quota",
                record.getJsonArray("attempts").getJsonObject(0).getString("error_code"));
    }
}
