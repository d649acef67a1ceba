package dev.baton.system;

import dev.baton.testkit.Behavior;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The minimal application of a user's own ({@code example-app}: the BOM, baton-impl, one bean injecting
 * {@code @Route("chat") FailoverChatService}, one servlet) deployed as built, on each server. Its connections
 * {@code primary} and {@code standby} are pointed at this class's simulator by the server's system properties, as the
 * sample's are ({@link ExampleConfig} says why it adds a connection).
 */
class ExampleAppIT extends ClientSideIT {


    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.example("baton-it-example.war")
                .addClasses(ExampleConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, ExampleConfig.class);
    }

    private HttpResponse<String> reply(String question) throws Exception {
        URI uri = base.toURI().resolve("reply?q=" + question);
        return Gateway.HTTP.send(HttpRequest.newBuilder(uri).timeout(Gateway.TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theInjectedServiceFailsOverFromAFailingAccountToAHealthyOne() throws Exception {
        HttpResponse<String> healthy = reply("refund");
        assertEquals(200, healthy.statusCode(), healthy::body);
        assertEquals("primary", healthy.headers().firstValue("X-Served-By").orElse(null), "the route's first target");
        assertEquals("Hello from primary.", healthy.body().strip());

        simulator.account("primary").setDefault(Behavior.overloaded());
        HttpResponse<String> failedOver = reply("refund");

        assertEquals(200, failedOver.statusCode(), failedOver::body);
        assertEquals("standby", failedOver.headers().firstValue("X-Served-By").orElse(null), failedOver::body);
        assertEquals("Hello from standby.", failedOver.body().strip());
        assertTrue(simulator.account("primary").requestCount() >= 2, "the primary was tried and failed");
        assertEquals(1, simulator.account("standby").requestCount());
    }
}
