package dev.baton.system;

import dev.baton.testkit.Behavior;



import java.net.http.HttpResponse;

import org.jboss.arquillian.container.test.api.Deployment;



import org.jboss.shrinkwrap.api.spec.WebArchive;



import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sample's own page, {@code GET /sample/draft}: Baton's service injected into a CDI bean and into a stateless
 * EJB, reaching the provider simulator that runs in this test JVM (the WAR's own simulator is switched off).
 */
class SampleDraftIT extends ClientSideIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it.war");
    }

    private HttpResponse<String> draft(String via) {
        return gateway.get("sample/draft?topic=refunds&via=" + via);
    }

    @Test
    void draftsThroughTheCdiBeanFromThePrimary() {
        HttpResponse<String> response = draft("cdi");

        assertEquals(200, response.statusCode(), response::body);
        assertTrue(response.body().startsWith("Hello from primary."), response::body);
        assertTrue(response.body().contains("served by primary/gpt-5.4-mini"), response::body);
        assertTrue(response.body().contains("via cdi"), response::body);
        assertEquals(1, simulator.account("primary").requestCount());
    }

    @Test
    void draftsThroughTheStatelessEjbAndFailsOverToTheStandby() {
        simulator.account("primary").setDefault(Behavior.overloaded());

        HttpResponse<String> response = draft("ejb");

        assertEquals(200, response.statusCode(), response::body);
        assertTrue(response.body().startsWith("Hello from standby."), response::body);
        assertTrue(response.body().contains("served by standby/gpt-5.4-mini (standby_a of route demo, via ejb)"),
                response::body);
        assertEquals(1, simulator.account("standby").requestCount());
    }

    @Test
    void usesTheSimulatorInTheTestJvmNotOneInsideTheWar() {
        draft("cdi");

        assertEquals(1, simulator.account("primary").requestCount(),
                "the server's system properties must reach the WAR, or it calls a simulator of its own");
    }
}
