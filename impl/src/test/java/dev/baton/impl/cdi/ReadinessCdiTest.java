package dev.baton.impl.cdi;

import dev.baton.ChatRequest;
import dev.baton.FailoverChatService;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.util.TypeLiteral;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One MicroProfile Health readiness check per route, registered by the extension and read under Weld SE. */
class ReadinessCdiTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    final ConfigProperties config = new ConfigProperties();

    @BeforeEach
    void configure() {
        for (String name : List.of("a", "b")) {
            config.set("baton.connections." + name + ".provider", "openai");
            config.set("baton.connections." + name + ".base-url", sim.baseUrl(name));
            config.set("baton.connections." + name + ".models", "m");
            config.set("baton.connections." + name + ".eject-after", "1");
            config.set("baton.connections." + name + ".cool-off", "10m");
        }
        config.set("baton.routes.both.targets", "a/m,b/m");
        config.set("baton.routes.only-a.targets", "a/m");
    }


    @Test
    void aRouteIsReadyWhileOneOfItsConnectionsCanBeTried() {
        try (WeldContainer container = BatonCdiTest.weld().initialize()) {
            assertEquals("UP", statuses(container).get("baton-route-both").getStatus().name());
            assertEquals("UP", statuses(container).get("baton-route-only-a").getStatus().name());

            sim.account("a").setDefault(Behavior.serverError());
            container.select(FailoverChatService.class).get().complete(ChatRequest.of("both", "hi"));

            Map<String, HealthCheckResponse> after = statuses(container);
            HealthCheckResponse onlyA = after.get("baton-route-only-a");
            assertEquals("DOWN", onlyA.getStatus().name());
            Map<String, Object> data = onlyA.getData().orElseThrow();
            assertEquals(0L, data.get("eligible"));
            assertTrue(data.get("a").toString().startsWith("ejected until 20"), data.toString());
            HealthCheckResponse both = after.get("baton-route-both");
            assertEquals("UP", both.getStatus().name(), "b still serves it");
            assertEquals(1L, both.getData().orElseThrow().get("eligible"));
            assertEquals("healthy", both.getData().orElseThrow().get("b"));

            sim.account("b").setDefault(Behavior.serverError());
            assertThrows(UpstreamFailedException.class,
                    () -> container.select(FailoverChatService.class).get().complete(ChatRequest.of("both", "hi")));
            assertEquals("DOWN", statuses(container).get("baton-route-both").getStatus().name());
        }
    }

    private static Map<String, HealthCheckResponse> statuses(WeldContainer container) {
        Instance<HealthCheck> checks = container.select(new TypeLiteral<HealthCheck>() {
        }, Readiness.Literal.INSTANCE);
        Map<String, HealthCheckResponse> byName = new TreeMap<>();
        checks.forEach(c -> {
            HealthCheckResponse r = c.call();
            byName.put(r.getName(), r);
        });
        assertEquals(2, byName.size(), byName::toString);
        return byName;
    }

}
