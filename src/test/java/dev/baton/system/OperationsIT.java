package dev.baton.system;

import dev.baton.testkit.Behavior;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an operator sees on the server: MicroProfile Health readiness per route going DOWN and back
 * UP as the providers fail and recover (liveness staying UP), and Baton's spans and metrics
 * through the server's MicroProfile Telemetry, read from the logging exporters' lines in the log.
 */
class OperationsIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-operations.war")
                .addClasses(OperationsConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, OperationsConfig.class);
    }

    @Test
    void theConsoleIsNotThereUnlessItIsTurnedOn() {
        for (String path : new String[] {"v1/console", "v1/console/console.js", "v1/console/series"}) {
            HttpResponse<String> response = gateway.send(HttpRequest.newBuilder(gateway.uri(path))
                    .header("Authorization", "Bearer " + Gateway.ADMIN_KEY).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, response.statusCode(), path);
            assertTrue(response.body().contains("No such endpoint"), response::body);
            assertFalse(response.body().contains("<html") || response.body().contains("function"), response::body);
        }
    }

    @Test
    void readinessOfARouteFollowsItsConnectionsAndLivenessStaysUp() throws Exception {
        assertEquals("UP", routeCheck(health("ready")).getString("status"));

        simulator.account("primary").setDefault(Behavior.serverError());
        simulator.account("standby").setDefault(Behavior.serverError());
        assertEquals(502, gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false)).statusCode());

        HttpResponse<String> ready = healthResponse("ready");
        assertEquals(503, ready.statusCode(), ready::body);
        JsonObject down = routeCheck(ready);
        assertEquals("DOWN", down.getString("status"), ready::body);
        JsonObject data = down.getJsonObject("data");
        assertEquals(0, data.getJsonNumber("eligible").longValue(), ready::body);
        assertTrue(data.getString("primary").startsWith("ejected until "), ready::body);
        assertTrue(data.getString("standby").startsWith("ejected until "), ready::body);
        HttpResponse<String> live = healthResponse("live");
        assertEquals(200, live.statusCode(), "a provider outage is not a dead process: " + live.body());

        simulator.reset();
        Thread.sleep(2_200); // the 2 s cool-off: each connection's probe is now due
        assertEquals("UP", routeCheck(health("ready")).getString("status"));
        assertEquals(200, gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false)).statusCode(), "the probe serves");
        JsonObject healthy = routeCheck(health("ready"));
        assertEquals("healthy", healthy.getJsonObject("data").getString("primary"), healthy::toString);
    }

    @Test
    void spansAndMetricsReachTheServersTelemetry() throws Exception {
        simulator.account("primary").enqueue(Behavior.serverError(), Behavior.serverError());

        HttpResponse<String> response = gateway.postChat(Gateway.chatBody(Gateway.ROUTE, false));
        assertEquals(200, response.statusCode(), response::body);
        String id = header(response, "x-request-id");

        String spans = awaitLog(log -> log.contains("baton.request_id=" + id) && log.contains("'chat demo'"));
        String requestSpan = lineWith(spans, "'chat demo'", "baton.request_id=" + id);
        assertTrue(requestSpan.contains("baton.position=standby_a"), requestSpan);
        assertTrue(requestSpan.contains("baton.outcome=ok"), requestSpan);
        String failedAttempt = lineWith(spans, "baton.failure_kind=server_error", "baton.request_id=" + id);
        assertTrue(failedAttempt.contains("baton.connection=primary"), failedAttempt);
        assertTrue(failedAttempt.contains("CLIENT"), failedAttempt);

        String metrics = awaitLog(log -> log.contains("name=baton.connection.fallbacks"));
        assertTrue(metrics.contains("name=baton.requests"), "requests counter");
        assertTrue(metrics.contains("name=baton.attempts"), "attempts counter");
        assertTrue(metrics.contains("name=baton.connection.state"), "connection state gauge");
        assertTrue(metrics.contains("name=baton.request.duration"), "duration histogram");
    }

    private JsonObject routeCheck(HttpResponse<String> response) {
        JsonObject body = Gateway.json(response.body());
        return body.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("name").equals("baton-route-demo")).findFirst()
                .orElseThrow(() -> new AssertionError("no baton-route-demo check in " + response.body()));
    }

    private HttpResponse<String> health(String kind) {
        HttpResponse<String> response = healthResponse(kind);
        assertEquals(200, response.statusCode(), response::body);
        return response;
    }

    /** Liberty serves /health on its HTTP port; WildFly on its management port. */
    private HttpResponse<String> healthResponse(String kind) {
        String management = System.getProperty("wildfly.management.port");
        URI uri = management != null ? URI.create("http://127.0.0.1:" + management + "/health/" + kind)
                : URI.create(base.toExternalForm()).resolve("/health/" + kind);
        return gateway.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String awaitLog(Predicate<String> ready) throws IOException, InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String log = ServerLog.read();
        while (!ready.test(log) && System.nanoTime() < until) {
            Thread.sleep(200);
            log = ServerLog.read();
        }
        assertTrue(ready.test(log), "not in the server log within 20 s");
        return log;
    }

    private static String lineWith(String log, String... parts) {
        return log.lines().filter(l -> {
            for (String p : parts) {
                if (!l.contains(p)) {
                    return false;
                }
            }
            return true;
        }).findFirst().orElseThrow(() -> new AssertionError("no log line with " + String.join(" and ", parts)));
    }
}
