package dev.baton.system;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulator;

import dev.baton.sample.DraftsBean;
import jakarta.inject.Inject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inside the server: Baton's {@link FailoverChatService} injected into this test and into the sample's stateless EJB
 * {@link DraftsBean}, both called for real. The provider simulator runs in the server JVM here (the
 * sample WAR bundles baton-testkit), started and closed by each test, so no lifecycle method is needed on either
 * side of the Arquillian protocol.
 */
@ExtendWith(ArquillianExtension.class)
class FailoverChatServiceIT {

    @Inject
    FailoverChatService chat;

    @Inject
    DraftsBean ejb;

    @Deployment
    static WebArchive deployment() {
        return Deployments.sample("baton-it-incontainer.war")
                .addClasses(FailoverChatServiceIT.class, Deployments.class, Ports.class);
    }

    @Test
    void servesAnInjectedServiceCallFromThePrimary() {
        try (ProviderSimulator simulator = ProviderSimulator.start(Ports.simulator())) {
            ChatResponse answer = chat.complete(ChatRequest.of("demo", "Say hello."));

            assertEquals("Hello from primary.", answer.content());
            assertEquals("primary", answer.servedBy().connection());
            assertEquals("demo", answer.servedBy().routeName());
            RequestRecord record = chat.findRecord(answer.requestId()).orElseThrow();
            assertEquals(1, record.attempts().size());
            assertEquals(1, simulator.account("primary").requestCount());
        }
    }

    @Test
    void draftsThroughTheStatelessEjbAndFailsOverToTheStandby() throws Exception {
        try (ProviderSimulator simulator = ProviderSimulator.start(Ports.simulator())) {
            simulator.account("primary").setDefault(Behavior.overloaded());

            String draft = ejb.draft("a refund for a duplicate charge");

            assertEquals("Hello from standby.", draft);
            assertEquals(1, simulator.account("standby").requestCount());
            String userMessage = simulator.account("standby").lastRequest().json().getJsonArray("messages")
                    .getJsonObject(1).getString("content");
            assertTrue(userMessage.contains("a refund for a duplicate charge"), userMessage);
            assertTrue(simulator.account("primary").requestCount() >= 1);
        }
    }
}
