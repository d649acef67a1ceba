package dev.baton.system;

import dev.baton.testkit.Behavior;


import jakarta.json.JsonObject;


import java.net.http.HttpResponse;
import java.util.List;

import org.jboss.arquillian.container.test.api.Deployment;



import org.jboss.shrinkwrap.api.spec.WebArchive;


import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;


import static dev.baton.system.Gateway.attempts;
import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spend limits on the demo route, which keeps the default {@code on.spend_limit=failover}: a limited account is asked
 * once and parked for 15 minutes while another account serves; when every account is out of spend the caller gets
 * the 429 at once, told that retrying will not help. Parking for 15 minutes needs a deployment of its own.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SpendLimitIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it.war");
    }

    @Test
    @Order(1)
    void aSpendLimitedAccountIsAskedOnceAndAnotherAccountServes() {
        simulator.account("primary").setDefault(Behavior.spendLimit("insufficient_quota"));

        HttpResponse<String> first = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        HttpResponse<String> second = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));

        assertEquals(200, first.statusCode(), first::body);
        assertEquals("standby", header(first, "x-baton-connection"));
        assertEquals("standby", header(second, "x-baton-connection"));
        assertEquals(1, simulator.account("primary").requestCount(), "never retried, parked for the next request");
        JsonObject record = gateway.record(header(first, "x-request-id"));
        assertEquals(List.of("primary:429:spend_limit", "standby:200:ok"), attempts(record));
    }

    @Test
    @Order(2)
    void everyAccountOutOfSpendAnswers429ProviderSpendLimitWithoutRetryAfter() {
        simulator.account("standby").setDefault(Behavior.spendLimit("insufficient_quota"));

        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));

        assertEquals(429, response.statusCode(), response::body);
        JsonObject error = Gateway.json(response.body()).getJsonObject("error");
        assertEquals("provider_spend_limit", error.getString("code"), response::body);
        assertEquals("insufficient_quota", error.getString("type"), response::body);
        assertEquals("false", header(response, "x-should-retry"));
        Gateway.assertHeaderAbsent(response, "retry-after");
        assertEquals(1, simulator.account("standby").requestCount());
        // The primary, parked by the first test, is skipped: listed in the error's attempts with its reason.
        List<String> listed = error.getJsonArray("attempts").stream().map(v -> v.asJsonObject())
                .map(a -> a.getString("connection") + ":" + a.getString("kind")).toList();
        assertEquals(List.of("standby:spend_limit", "primary:skipped"), listed, response::body);

        JsonObject record = gateway.record(header(response, "x-request-id"));
        assertEquals("provider_spend_limit", record.getString("error_code"));
        assertEquals(List.of("standby:429:spend_limit"), attempts(record));
    }
}
