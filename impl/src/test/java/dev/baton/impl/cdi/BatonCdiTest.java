package dev.baton.impl.cdi;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.servlet.Endpoint;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DefinitionException;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Boots Weld SE with {@link BatonExtension} and {@link BatonChatService}, configured through MicroProfile Config
 * (SmallRye Config reading system properties), as an application server would.
 */
class BatonCdiTest {

    private static final String API_KEY = "sk-test-cdi-secret-0123456789abcdef";

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    final ConfigProperties config = new ConfigProperties();


    @Test
    void theEndpointsServletsAreGivenWhatTheRuntimeBuiltOnlyWhenTheEndpointIsEnabled() {
        simConnection();
        try (WeldContainer container = weld().initialize()) {
            assertNull(container.select(Endpoint.class).get(), "no endpoint: no servlet asks for one");
        }
        config.set("baton.endpoint.enabled", "true");
        try (WeldContainer container = weld().initialize()) {
            Endpoint endpoint = container.select(Endpoint.class).get();
            assertNotNull(endpoint);
            assertSame(endpoint, container.select(Endpoint.class).get(), "built once, with the engine");
        }
    }

    @Test
    void budgetsThatCannotBeChargedInOneCurrencyStopTheApplicationsStart() {
        simConnection();
        config.set("baton.connections.sim.models", "m,n");
        config.set("baton.models.m.price.input", "1");
        config.set("baton.models.m.price.output", "1");
        config.set("baton.models.n.price.input", "1");
        config.set("baton.models.n.price.output", "1");
        config.set("baton.models.n.price.currency", "EUR");
        config.set("baton.endpoint.enabled", "true");
        config.set("baton.endpoint.keys.team.sha256", "a".repeat(64));
        config.set("baton.endpoint.keys.team.budget", "5/1d");

        RuntimeException e = assertThrows(RuntimeException.class, () -> weld().initialize().close());

        StringBuilder all = new StringBuilder();
        collect(e, all, Collections.newSetFromMap(new IdentityHashMap<>()));
        assertTrue(all.toString().contains("baton.endpoint.keys.team.budget: a budget counts one currency"),
                all::toString);
    }

    private void simConnection() {
        config.set("baton.connections.sim.provider", "openai");
        config.set("baton.connections.sim.base-url", sim.baseUrl("sim"));
        config.set("baton.connections.sim.api-key", API_KEY);
        config.set("baton.connections.sim.models", "m");
        config.set("baton.routes.chat.targets", "sim/m");
    }

    @Test
    void theServiceIsAnApplicationScopedBeanThatServesOverHttp() {
        config.set("baton.connections.sim.provider", "openai");
        config.set("baton.connections.sim.base-url", sim.baseUrl("sim"));
        config.set("baton.connections.sim.api-key", API_KEY);
        config.set("baton.connections.sim.models", "m");
        config.set("baton.routes.chat.targets", "sim/m");

        try (WeldContainer container = weld().initialize()) {
            FailoverChatService service = container.select(FailoverChatService.class).get();
            ChatResponse response = service.complete(ChatRequest.of("chat", "hi"));

            assertEquals("Hello from sim.", response.content());
            assertTrue(service.findRecord(response.requestId()).isPresent());
            assertEquals(1, sim.account("sim").requestCount());

            BeanManager beans = container.getBeanManager();
            Bean<?> engineBean = beans.resolve(beans.getBeans(BatonChatService.class));
            assertEquals(ApplicationScoped.class, engineBean.getScope(), "one engine per application");
            Bean<?> bean = beans.resolve(beans.getBeans(FailoverChatService.class));
            assertEquals(ChatServiceProducer.class, bean.getBeanClass(), "bound per injection point");
            FailoverChatService other = container.select(FailoverChatService.class).get();
            assertTrue(other.findRecord(response.requestId()).isPresent(), "both views share the engine's records");
        }
    }

    @Test
    void aWrongConfigurationFailsTheDeploymentNamingTheKey() {
        config.set("baton.connections.sim.provider", "openai");
        config.set("baton.connections.sim.models", "m");
        config.set("baton.connections.sim.base-url", "http://example.com/v1");
        config.set("baton.routes.chat.same-target-retries", "7");

        String message = deploymentFailure();

        assertTrue(message.contains("baton.connections.sim.base-url"), message);
        assertTrue(message.contains("must use https"), message);
        assertTrue(message.contains("baton.routes.chat.targets: required"), message);
        assertTrue(message.contains("baton.routes.chat.same-target-retries"), message);
        assertTrue(message.contains("must be between 0 and 3 but was 7"), message);
    }

    @Test
    void noBatonConfigurationStillDeploysAndRefusesUnknownModels() {
        try (WeldContainer container = weld().initialize()) {
            FailoverChatService service = container.select(FailoverChatService.class).get();

            RequestRejectedException e = assertThrows(RequestRejectedException.class,
                    () -> service.complete(ChatRequest.of("x", "hi")));
            assertEquals(404, e.httpStatus());
        }
    }

    @Test
    void theApiKeyNeverAppearsInADeploymentFailure() {
        config.set("baton.connections.sim.provider", "openai");
        config.set("baton.connections.sim.api-key", API_KEY);
        // The key pasted into the URL as well: the loader must name the host, never echo the URL.
        config.set("baton.connections.sim.base-url", "https://" + API_KEY + "@api.example.com/v1");
        config.set("baton.connections.sim.models", "m");
        config.set("baton.connections.sim.eject-after", "0");
        config.set("baton.routes.chat.targets", "sim/m");

        String message = deploymentFailure();

        assertTrue(message.contains("baton.connections.sim.base-url"), message);
        assertTrue(message.contains("baton.connections.sim.eject-after"), message);
        assertFalse(message.contains(API_KEY), message);
        assertFalse(message.contains("cdi-secret"), message);
    }

    static Weld weld(Class<?>... applicationBeans) {
        return new Weld()
                .disableDiscovery()
                .addExtension(new BatonExtension())
                .addBeanClasses(BatonChatService.class, ChatServiceProducer.class, FailoverPolicyInterceptor.class)
                .addBeanClasses(applicationBeans);
    }

    /** Boots Weld, expects it to refuse, and returns every message along the cause and suppressed chains. */
    static String deploymentFailure(Class<?>... applicationBeans) {
        Weld weld = weld(applicationBeans);
        try (WeldContainer ignored = weld.initialize()) {
            fail("the deployment should have failed");
        } catch (RuntimeException e) {
            StringBuilder all = new StringBuilder();
            collect(e, all, Collections.newSetFromMap(new IdentityHashMap<>()));
            // A definition error: reported after bean discovery, before the container validates the deployment.
            assertInstanceOf(DefinitionException.class, e, all::toString);
            assertTrue(all.toString().contains(FailoverDefinitionException.class.getName()), all::toString);
            return all.toString();
        } finally {
            weld.shutdown();
        }
        throw new AssertionError("unreachable");
    }

    private static void collect(Throwable t, StringBuilder all, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        all.append(t).append('\n');
        collect(t.getCause(), all, seen);
        for (Throwable s : t.getSuppressed()) {
            collect(s, all, seen);
        }
    }


}
