package dev.baton.impl.cdi;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.FailoverPolicy;
import dev.baton.FailureAction;
import dev.baton.Route;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.exception.UpstreamUnavailableException;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static dev.baton.impl.cdi.BatonCdiTest.deploymentFailure;
import static dev.baton.impl.cdi.BatonCdiTest.weld;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code @Route} and {@code @FailoverPolicy} bound by the CDI extension under Weld SE, against the simulator. */
class PolicyBindingCdiTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    final ConfigProperties config = new ConfigProperties();

    @ApplicationScoped
    public static class Drafts {
        @Inject
        @Route("drafts")
        FailoverChatService drafts;

        @Inject
        @Route("drafts")
        @FailoverPolicy(sameTargetRetries = 0)
        FailoverChatService noRetries;

        // Fields are read through methods: the test holds a client proxy, whose own fields are empty.
        public FailoverChatService drafts() {
            return drafts;
        }

        public FailoverChatService noRetries() {
            return noRetries;
        }

        public ChatResponse draft(String text) {
            return drafts.complete(ChatRequest.builder().message("user", text).build());
        }

        @FailoverPolicy(degraded = "Drafting is temporarily unavailable.")
        public ChatResponse draftOrDegrade(String text) {
            return drafts.complete(ChatRequest.builder().message("user", text).build());
        }
    }

    @ApplicationScoped
    @FailoverPolicy(onServerError = FailureAction.STOP)
    public static class Strict {
        @Inject
        FailoverChatService chat;

        public ChatResponse ask(String model) {
            return chat.complete(ChatRequest.of(model, "hi"));
        }
    }

    @ApplicationScoped
    public static class Solo {
        @Inject
        @Route("solo")
        FailoverChatService solo;

        public ChatResponse patient() {
            return solo.complete(ChatRequest.builder().message("user", "hi").build());
        }

        @FailoverPolicy(maxWait = "0s")
        public ChatResponse impatient() {
            return solo.complete(ChatRequest.builder().message("user", "hi").build());
        }
    }

    @ApplicationScoped
    public static class BadDeadline {
        @Inject
        @FailoverPolicy(deadline = "0s")
        FailoverChatService chat;
    }

    @ApplicationScoped
    public static class BadAction {
        @FailoverPolicy(onTimeout = FailureAction.RETRY, fallbacks = "no-such-model")
        public void call() {
        }
    }

    @ApplicationScoped
    public static class Balanced {
        @Inject
        @Route("drafts")
        @FailoverPolicy(balance = "weighted")
        FailoverChatService spread;

        public String draft() {
            return spread.complete(ChatRequest.builder().message("user", "hi").build()).servedBy().connection();
        }
    }

    @ApplicationScoped
    public static class BadBalance {
        @Inject
        @FailoverPolicy(balance = "round-robin")
        FailoverChatService chat;
    }

    @ApplicationScoped
    public static class UnknownRoute {
        @Inject
        @Route("nowhere")
        FailoverChatService chat;
    }

    @BeforeEach
    void configure() {
        for (String name : List.of("a", "b")) {
            config.set("baton.connections." + name + ".provider", "openai");
            config.set("baton.connections." + name + ".base-url", sim.baseUrl(name));
            config.set("baton.connections." + name + ".models", "m");
        }
        config.set("baton.routes.drafts.targets", "a/m,b/m");
        config.set("baton.routes.solo.targets", "a/m");
        config.set("baton.defaults.retry-backoff", "1ms");
    }


    @Test
    void aRouteQualifierSendsEveryRequestToItsRoute() {
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            Drafts drafts = container.select(Drafts.class).get();

            ChatResponse answer = drafts.draft("hi");

            assertEquals("drafts", answer.servedBy().routeName());
            assertEquals(1, sim.account("a").requestCount());
            RequestRejectedException wrong = assertThrows(RequestRejectedException.class,
                    () -> drafts.drafts().complete(ChatRequest.of("m", "hi")));
            assertTrue(wrong.getMessage().contains("bound to the route `drafts`"), wrong.getMessage());
        }
    }

    @Test
    void aProgrammaticLookupNamesItsRouteWithALiteral() {
        try (WeldContainer container = weld().initialize()) {
            FailoverChatService drafts = container.select(FailoverChatService.class, Route.Literal.of("drafts")).get();
            assertEquals("drafts", drafts.complete(ChatRequest.builder().message("user", "hi").build())
                    .servedBy().routeName());

            var unknown = container.select(FailoverChatService.class, Route.Literal.of("nowhere"));
            FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class, unknown::get);
            assertTrue(e.getMessage().contains("@Route(\"nowhere\"): no such route"), e.getMessage());
        }
    }

    @Test
    void anInjectionPointPolicyChangesHowItsCallsAreRetried() {
        sim.account("a").setDefault(Behavior.serverError());
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            Drafts drafts = container.select(Drafts.class).get();

            drafts.draft("hi");
            assertEquals(2, sim.account("a").requestCount(), "the route's one retry");

            sim.account("a").reset().setDefault(Behavior.serverError());
            drafts.noRetries().complete(ChatRequest.builder().message("user", "hi").build());
            assertEquals(1, sim.account("a").requestCount(), "sameTargetRetries = 0 at the injection point");
        }
    }

    @Test
    void aMethodPolicyAnswersDegradedWhenNoTargetCanServe() {
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.serverError());
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            Drafts drafts = container.select(Drafts.class).get();

            ChatResponse degraded = drafts.draftOrDegrade("hi");

            assertTrue(degraded.degraded());
            assertNull(degraded.servedBy());
            assertEquals("Drafting is temporarily unavailable.", degraded.content());
            assertEquals(502, degraded.degradedBecause().httpStatus());
            assertEquals("degraded", drafts.drafts().findRecord(degraded.requestId()).orElseThrow().status());
            assertThrows(UpstreamUnavailableException.class, () -> drafts.draft("hi"),
                    "outside the annotated method the route has no degraded answer");
        }
    }

    @Test
    void configOverridesTheAnnotationNarrowestKeyFirst() {
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.serverError());
        String drafts = Drafts.class.getName();
        config.set("FailoverPolicy/degraded", "global");
        config.set(drafts + "/FailoverPolicy/degraded", "class");
        config.set(drafts + "/draftOrDegrade/FailoverPolicy/degraded", "method");
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            assertEquals("method", container.select(Drafts.class).get().draftOrDegrade("hi").content());
        }
        config.clear(drafts + "/draftOrDegrade/FailoverPolicy/degraded");
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            assertEquals("class", container.select(Drafts.class).get().draftOrDegrade("hi").content());
        }
        config.clear(drafts + "/FailoverPolicy/degraded");
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            assertEquals("global", container.select(Drafts.class).get().draftOrDegrade("hi").content());
        }
    }

    @Test
    void theGlobalSwitchTurnsThePoliciesOff() {
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.serverError());
        config.set("FailoverPolicy/enabled", "false");
        try (WeldContainer container = weld(Drafts.class).initialize()) {
            Drafts drafts = container.select(Drafts.class).get();
            assertThrows(UpstreamUnavailableException.class, () -> drafts.draftOrDegrade("hi"));
            sim.account("a").reset().setDefault(Behavior.serverError());
            assertThrows(UpstreamUnavailableException.class,
                    () -> drafts.noRetries().complete(ChatRequest.builder().message("user", "hi").build()));
            assertEquals(2, sim.account("a").requestCount(), "the route's retry is back");
        }
    }

    @Test
    void aClassPolicyCoversEveryBusinessMethod() {
        sim.account("a").setDefault(Behavior.serverError());
        try (WeldContainer container = weld(Strict.class).initialize()) {
            UpstreamUnavailableException e = assertThrows(UpstreamUnavailableException.class,
                    () -> container.select(Strict.class).get().ask("m"));
            assertEquals(1, sim.account("a").requestCount());
            assertEquals(0, sim.account("b").requestCount(), "stop: b is never asked");
            assertEquals(502, e.httpStatus());
        }
    }

    @Test
    void maxWaitOnAMethodDecidesWhetherAShortRetryAfterIsWaitedFor() {
        try (WeldContainer container = weld(Solo.class).initialize()) {
            Solo solo = container.select(Solo.class).get();
            sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(1)));
            assertEquals("a", solo.patient().servedBy().connection(), "the route's max-wait (2s) covers 1s");

            sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(1)));
            UpstreamUnavailableException e = assertThrows(UpstreamUnavailableException.class, solo::impatient);
            assertEquals(429, e.httpStatus());
            assertEquals(3, sim.account("a").requestCount(), "max-wait 0s: the 429 is answered, not waited out");
        }
    }

    @Test
    void aPolicyCanBalanceAPriorityRouteAndABadStrategyFailsTheDeployment() {
        try (WeldContainer container = weld(Balanced.class, Drafts.class).initialize()) {
            Balanced balanced = container.select(Balanced.class).get();
            Drafts drafts = container.select(Drafts.class).get();
            for (int i = 0; i < 40; i++) {
                balanced.draft();
                drafts.draft("hi");
            }
            // The route is priority: its own 40 go to a; the weighted injection point spreads its 40 over both.
            assertTrue(sim.account("b").requestCount() >= 8, "b served " + sim.account("b").requestCount());
            assertEquals(80, sim.account("a").requestCount() + sim.account("b").requestCount());
        }
        String message = deploymentFailure(BadBalance.class);
        assertTrue(message.contains("member balance: 'round-robin' is not one of [priority, weighted, adaptive, "
                + "least-busy, sticky]"), message);
    }

    @Test
    void anInvalidAnnotationValueFailsTheDeploymentNamingIt() {
        String message = deploymentFailure(BadDeadline.class);
        assertTrue(message.contains("@FailoverPolicy on " + BadDeadline.class.getName() + ".chat, member deadline: "
                + "must be between 1ms and 3600s but was 0s"), message);
    }

    @Test
    void anInvalidConfigValueFailsTheDeploymentNamingTheKey() {
        config.set(Drafts.class.getName() + "/noRetries/FailoverPolicy/sameTargetRetries", "9");
        String message = deploymentFailure(Drafts.class);
        assertTrue(message.contains(Drafts.class.getName() + "/noRetries/FailoverPolicy/sameTargetRetries "
                + "(from SysPropConfigSource): must be between 0 and 3 but was 9"), message);
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        String message = deploymentFailure(BadAction.class, UnknownRoute.class);
        assertTrue(message.contains("member onTimeout: 'RETRY' is not allowed"), message);
        assertTrue(message.contains("member fallbacks: 'no-such-model' is not a model any configured connection serves"),
                message);
        assertTrue(message.contains("@Route(\"nowhere\") at " + UnknownRoute.class.getName() + ".chat: no such route"),
                message);
        assertFalse(message.contains("Drafts"), message);
    }


}
