package dev.baton.system;

import dev.baton.testkit.Behavior;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator endpoints of the sample WAR: each connection's state and recent counts, an operator's eject and
 * restore, the records listing, and the admin key that guards them. The tests share one deployment and so Baton's
 * health state; each one ends by restoring both connections.
 */
class ConnectionsIT extends ClientSideIT {

    static final String ADMIN_KEY = Gateway.ADMIN_KEY;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-connections.war");
    }

    @AfterEach
    void restoreBoth() {
        gateway.restoreConnections();
    }

    @Test
    void failuresEjectAConnectionAndItShowsAsEjectedWithUntilAndCountsByKind() {
        simulator.account("primary").setDefault(Behavior.overloaded());
        List<String> ids = new ArrayList<>();
        JsonObject primary = connection("primary");
        for (int i = 0; i < 10 && !primary.getString("state").equals("ejected"); i++) {
            HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
            assertEquals(200, response.statusCode(), response::body);
            assertEquals("standby", header(response, "x-baton-connection"));
            ids.add(header(response, "x-request-id"));
            primary = connection("primary");
        }

        assertEquals("ejected", primary.getString("state"), primary::toString);
        assertEquals("failures", primary.getString("ejected_by"));
        assertEquals("server_error", primary.getString("eject_reason"));
        Instant until = Instant.parse(primary.getString("ejected_until"));
        assertTrue(until.isAfter(Instant.now()), () -> "ejected until " + until);
        assertEquals(primary.getString("ejected_until"), primary.getString("probe_due_at"));
        assertTrue(primary.getInt("consecutive_failures") >= 5, primary::toString);
        assertEquals(30_000, primary.getJsonNumber("cool_off_ms").longValue());
        JsonObject window = primary.getJsonObject("window");
        assertEquals(900, window.getInt("seconds"));
        assertTrue(window.getJsonObject("failures").getInt("server_error") >= 5, window::toString);
        assertEquals(0, window.getJsonObject("failures").getInt("rate_limit"));
        assertTrue(window.getInt("fallbacks") >= ids.size(), window::toString);
        assertTrue(window.getJsonNumber("fallback_rate").doubleValue() > 0, window::toString);
        assertEquals("healthy", connection("standby").getString("state"));

        // Every request above touched the failing primary: the listing by connection finds them all.
        HttpResponse<String> listing = admin("GET", "v1/records?connection=primary&limit=1000", null);
        assertEquals(200, listing.statusCode(), listing::body);
        JsonArray records = Gateway.json(listing.body()).getJsonArray("data");
        Set<String> found = new HashSet<>();
        for (JsonValue value : records) {
            JsonObject record = value.asJsonObject();
            found.add(record.getString("id"));
            assertTrue(Gateway.attempts(record).stream().anyMatch(a -> a.startsWith("primary:")), record::toString);
        }
        assertTrue(found.containsAll(ids), () -> "listed " + found + ", sent " + ids);
        assertNewestFirst(records);

        // A request after the ejection never touches the primary, so it is not listed for it.
        HttpResponse<String> after = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        String afterId = header(after, "x-request-id");
        JsonArray again = Gateway.json(admin("GET", "v1/records?connection=primary&limit=1000", null).body())
                .getJsonArray("data");
        assertFalse(again.stream().anyMatch(r -> r.asJsonObject().getString("id").equals(afterId)));
        JsonArray standby = Gateway.json(admin("GET", "v1/records?connection=standby&outcome=ok&limit=5", null).body())
                .getJsonArray("data");
        assertEquals(afterId, standby.getJsonObject(0).getString("id"), "newest first");
    }

    @Test
    void anOperatorEjectionTakesAHealthyConnectionOutAndRestoreBringsItBack() {
        HttpResponse<String> ejected = admin("POST", "v1/connections/primary/eject",
                "{\"for\": \"10m\", \"reason\": \"maintenance\"}");

        assertEquals(200, ejected.statusCode(), ejected::body);
        JsonObject snapshot = Gateway.json(ejected.body());
        assertEquals("primary", snapshot.getString("connection"));
        assertEquals("ejected", snapshot.getString("state"));
        assertEquals("operator", snapshot.getString("ejected_by"));
        assertEquals("maintenance", snapshot.getString("eject_reason"));
        Duration left = Duration.between(Instant.now(), Instant.parse(snapshot.getString("ejected_until")));
        assertTrue(left.compareTo(Duration.ofMinutes(9)) > 0 && left.compareTo(Duration.ofMinutes(11)) < 0,
                () -> "ejected for " + left);

        HttpResponse<String> chat = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        assertEquals(200, chat.statusCode(), chat::body);
        assertEquals("standby", header(chat, "x-baton-connection"));
        assertEquals("standby_a", header(chat, "x-baton-route"));
        assertEquals(0, simulator.account("primary").requestCount(), "nothing reaches an ejected connection");

        HttpResponse<String> restored = admin("POST", "v1/connections/primary/restore", null);
        assertEquals(200, restored.statusCode(), restored::body);
        JsonObject back = Gateway.json(restored.body());
        assertEquals("healthy", back.getString("state"));
        assertTrue(back.isNull("ejected_by"));
        assertTrue(back.isNull("ejected_until"));

        HttpResponse<String> again = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        assertEquals("primary", header(again, "x-baton-connection"));
        assertEquals(1, simulator.account("primary").requestCount());
    }

    @Test
    void anEjectionWithoutABodyLastsTheCoolOff() {
        HttpResponse<String> ejected = admin("POST", "v1/connections/standby/eject", null);

        assertEquals(200, ejected.statusCode(), ejected::body);
        JsonObject snapshot = Gateway.json(ejected.body());
        assertEquals("ejected", snapshot.getString("state"));
        Duration left = Duration.between(Instant.now(), Instant.parse(snapshot.getString("ejected_until")));
        assertTrue(left.compareTo(Duration.ofSeconds(20)) > 0 && left.compareTo(Duration.ofSeconds(31)) <= 0,
                () -> "ejected for " + left);
        assertEquals("ejected", connection("standby").getString("state"));
    }

    @Test
    void badEjectionsAndUnknownConnectionsAreRefusedNamingWhatIsWrong() {
        HttpResponse<String> badFor = admin("POST", "v1/connections/primary/eject", "{\"for\": \"forever\"}");
        assertEquals(400, badFor.statusCode(), badFor::body);
        assertEquals("for", error(badFor).getString("param"));

        HttpResponse<String> tooLong = admin("POST", "v1/connections/primary/eject", "{\"for\": \"25h\"}");
        assertEquals(400, tooLong.statusCode(), tooLong::body);
        assertEquals("for", error(tooLong).getString("param"));
        assertEquals("healthy", connection("primary").getString("state"), "a refused ejection changes nothing");

        assertEquals(404, admin("POST", "v1/connections/nope/eject", null).statusCode());
        assertEquals(404, admin("POST", "v1/connections/nope/restore", null).statusCode());
        assertEquals(404, admin("GET", "v1/connections/nope", null).statusCode());

        HttpResponse<String> badOutcome = admin("GET", "v1/records?outcome=fine", null);
        assertEquals(400, badOutcome.statusCode(), badOutcome::body);
        assertEquals("outcome", error(badOutcome).getString("param"));
        HttpResponse<String> badFrom = admin("GET", "v1/records?from=yesterday", null);
        assertEquals(400, badFrom.statusCode(), badFrom::body);
        assertEquals("from", error(badFrom).getString("param"));
        assertEquals("limit", error(admin("GET", "v1/records?limit=0", null)).getString("param"));
        assertEquals("connection", error(admin("GET", "v1/records?connection=nope", null)).getString("param"));
    }

    @Test
    void theListShowsEveryConnectionWithoutCredentialsOrUrls() {
        HttpResponse<String> response = admin("GET", "v1/connections", null);

        assertEquals(200, response.statusCode(), response::body);
        assertTrue(header(response, "content-type").startsWith("application/json"));
        JsonObject list = Gateway.json(response.body());
        assertEquals("list", list.getString("object"));
        List<String> names = list.getJsonArray("data").stream().map(v -> v.asJsonObject().getString("connection"))
                .toList();
        assertEquals(List.of("claude", "primary", "standby"), names);
        assertFalse(response.body().contains("127.0.0.1"), "no base URL");
        assertFalse(response.body().contains("api_key") || response.body().contains("base_url"), response::body);
        JsonObject primary = connection("primary");
        assertEquals("openai", primary.getString("provider"));
        assertEquals(List.of(Gateway.MODEL, "text-embedding-3-small"),
                primary.getJsonArray("models").getValuesAs(JsonString::getString));
    }

    @Test
    void onlyTheAdminKeyOpensTheOperatorEndpointsAndItCannotChat() {
        assertEquals(401, call("GET", "v1/connections", null, null).statusCode(), "no key");
        assertEquals(401, call("GET", "v1/connections", null, "Bearer wrong-key").statusCode(), "wrong key");
        assertEquals(401, call("POST", "v1/connections/primary/eject", null, "Bearer wrong-key").statusCode());
        assertEquals(401, call("GET", "v1/records", null, null).statusCode());

        HttpResponse<String> chatKey = call("GET", "v1/connections", null, "Bearer " + Gateway.KEY);
        assertEquals(403, chatKey.statusCode(), chatKey::body);
        assertEquals("admin_key_required", error(chatKey).getString("code"));
        assertEquals(403, call("POST", "v1/connections/primary/eject", null, "Bearer " + Gateway.KEY).statusCode());
        assertEquals(403, call("GET", "v1/records", null, "Bearer " + Gateway.KEY).statusCode());
        assertEquals("healthy", connection("primary").getString("state"), "a refused caller changes nothing");

        HttpResponse<String> adminChats = call("POST", "v1/chat/completions", Gateway.chatBody(Gateway.ROUTE, false),
                "Bearer " + ADMIN_KEY);
        assertEquals(403, adminChats.statusCode(), adminChats::body);
        assertEquals("gateway_key_required", error(adminChats).getString("code"));
        assertEquals(0, simulator.account("primary").requestCount() + simulator.account("standby").requestCount());
    }

    private JsonObject connection(String name) {
        HttpResponse<String> response = admin("GET", "v1/connections/" + name, null);
        assertEquals(200, response.statusCode(), response::body);
        JsonObject snapshot = Gateway.json(response.body());
        assertNotNull(snapshot.getJsonObject("window"), snapshot::toString);
        return snapshot;
    }

    private HttpResponse<String> admin(String method, String path, String body) {
        return call(method, path, body, "Bearer " + ADMIN_KEY);
    }

    private HttpResponse<String> call(String method, String path, String body, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri(path)).timeout(Gateway.TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return gateway.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject error(HttpResponse<String> response) {
        return Gateway.json(response.body()).getJsonObject("error");
    }

    private static void assertNewestFirst(JsonArray records) {
        for (int i = 1; i < records.size(); i++) {
            Instant newer = Instant.parse(records.getJsonObject(i - 1).getString("started_at"));
            Instant older = Instant.parse(records.getJsonObject(i).getString("started_at"));
            assertFalse(older.isAfter(newer), () -> "not newest first: " + records);
        }
    }
}
