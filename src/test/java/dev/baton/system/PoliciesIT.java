package dev.baton.system;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.Route;
import dev.baton.exception.UpstreamUnavailableException;
import dev.baton.impl.cdi.BatonChatService;
import dev.baton.record.RequestRecord;
import dev.baton.sample.DraftService;
import dev.baton.sample.DraftsBean;
import dev.baton.sample.ResilientDrafts;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulator;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inside the server: route qualifiers, {@code @FailoverPolicy} from annotations and config, the
 * sample's EJB and its MicroProfile Fault Tolerance bean, and per-connection limits, against a
 * simulator started in the server JVM by each test. The examples of {@code docs/annotations.md}.
 */
@ExtendWith(ArquillianExtension.class)
class PoliciesIT {

    @Inject
    FailoverChatService chat;

    @Inject
    BatonChatService service;

    @Inject
    DraftService drafts;

    @Inject
    DraftsBean ejb;

    @Inject
    ResilientDrafts resilient;

    @Inject
    PolicyProbe probe;

    @Inject
    @Route("guarded")
    FailoverChatService guarded;

    @Inject
    @Route("metered")
    FailoverChatService metered;

    @Deployment
    static WebArchive deployment() {
        return Deployments.sample("baton-it-policies.war")
                .addClasses(PoliciesIT.class, Deployments.class, Ports.class, PolicyProbe.class, PoliciesConfig.class,
                        DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, PoliciesConfig.class);
    }

    /** Each test starts with every connection in rotation, whatever the one before provoked (a spend limit parks for 15 min). */
    @AfterEach
    void restoreConnections() {
        for (String connection : List.of("primary", "standby")) {
            service.engine().health().restore(connection);
        }
    }

    private static ChatRequest hello() {
        return ChatRequest.builder().message("user", "Say hello.").build();
    }

    @Test
    void aRouteQualifiedServiceSendsItsRequestsToTheRoute() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            ChatResponse answer = drafts.draft("a late parcel");

            assertEquals("demo", answer.servedBy().routeName());
            assertEquals("Hello from primary.", answer.content());
            assertEquals(1, sim.account("primary").requestCount());
        }
    }

    @Test
    void aProgrammaticLookupBindsTheRouteToo() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            FailoverChatService demo = CDI.current().select(FailoverChatService.class, Route.Literal.of("demo")).get();

            ChatResponse answer = demo.complete(hello());

            assertEquals("demo", answer.servedBy().routeName());
            assertEquals(1, sim.account("primary").requestCount());
        }
    }

    @Test
    void aMethodPolicyAnswersItsDegradedTextWhenNothingCanServe() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("primary").setDefault(Behavior.overloaded());
            sim.account("standby").setDefault(Behavior.overloaded());

            ChatResponse answer = drafts.draftOrNotice("a late parcel");

            assertTrue(answer.degraded());
            assertNull(answer.servedBy());
            assertEquals("Drafting is temporarily unavailable. Please write this reply yourself.", answer.content());
            assertEquals("degraded", chat.findRecord(answer.requestId()).orElseThrow().status());
            assertThrows(UpstreamUnavailableException.class, () -> drafts.draft("a late parcel"),
                    "the unannotated method gets the failure");
        }
    }

    @Test
    void configOverridesAnAnnotationValue() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("primary").setDefault(Behavior.overloaded());
            sim.account("standby").setDefault(Behavior.overloaded());

            assertEquals(PolicyProbe.FROM_ANNOTATION, probe.annotated().content());
            assertEquals(PolicyProbe.FROM_CONFIG, probe.configured().content());
        }
    }

    @Test
    void configCutsTheSamplesDeadline() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("primary").setDefault(Behavior.noResponse());
            sim.account("standby").setDefault(Behavior.noResponse());

            long started = System.nanoTime();
            ChatResponse answer = drafts.draftOrNotice("a late parcel");
            long tookMs = (System.nanoTime() - started) / 1_000_000;

            assertTrue(answer.degraded());
            assertEquals(408, answer.degradedBecause().httpStatus(), "the deadline ended it");
            assertTrue(tookMs >= 1_900 && tookMs < 4_500,
                    "2 s from config, not the annotation's 10 s (route attempt timeout 5 s); took " + tookMs + " ms");
        }
    }

    @Test
    void theUsersRetryAsksAgainOnlyWhenARetryCanHelp() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            // The first call fails everywhere (each target once plus its same-target retry); the retry succeeds.
            sim.account("primary").enqueue(Behavior.overloaded(), Behavior.overloaded());
            sim.account("standby").enqueue(Behavior.overloaded(), Behavior.overloaded());

            assertEquals("Hello from primary.", resilient.draft("a refund"));
            assertEquals(3, sim.account("primary").requestCount());
            assertEquals(2, sim.account("standby").requestCount());

            // Every account out of spend: UpstreamRefusedException, so no @Retry, straight to the fallback method.
            sim.account("primary").reset().setDefault(Behavior.spendLimit("insufficient_quota"));
            sim.account("standby").reset().setDefault(Behavior.spendLimit("insufficient_quota"));
            assertEquals("No draft this time: please write the reply yourself.", resilient.draft("a refund"));
            assertEquals(1, sim.account("primary").requestCount());
            assertEquals(1, sim.account("standby").requestCount());
        }
    }

    @Test
    void theStatelessEjbDraftsBlockingAndAsynchronously() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("primary").setDefault(Behavior.overloaded());

            assertEquals("Hello from standby.", ejb.draft("a refund"));
            Future<String> later = ejb.draftAsync("a refund");
            assertEquals("Hello from standby.", later.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void theEjbThrowsBatonsExceptionAsIsNotWrapped() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("primary").setDefault(Behavior.overloaded());
            sim.account("standby").setDefault(Behavior.overloaded());

            UpstreamUnavailableException blocking = assertThrows(UpstreamUnavailableException.class,
                    () -> ejb.draft("a refund"));
            assertTrue(blocking.retryable());
            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> ejb.replyAsync("a refund").get(30, TimeUnit.SECONDS));
            assertInstanceOf(UpstreamUnavailableException.class, async.getCause());
        }
    }

    @Test
    void aConnectionAtItsConcurrencyLimitIsSkippedForTheNextTarget() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("guarded").enqueue(Behavior.reply("slow").afterDelay(Duration.ofSeconds(1)));

            CompletionStage<ChatResponse> first = guarded.completeAsync(hello());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (sim.account("guarded").requestCount() == 0 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            ChatResponse second = guarded.complete(hello());

            assertEquals("standby", second.servedBy().connection());
            RequestRecord record = guarded.findRecord(second.requestId()).orElseThrow();
            assertEquals("at its limit of 1 concurrent requests", record.skipped().get(0).reason());
            assertEquals("slow", first.toCompletableFuture().get(10, TimeUnit.SECONDS).content());
            assertEquals(1, sim.account("guarded").requestCount());
        }
    }

    @Test
    void aConnectionOverItsRateLimitIsSkippedForTheNextTarget() {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            ChatResponse first = metered.complete(hello());
            ChatResponse second = metered.complete(hello());

            assertEquals("metered", first.servedBy().connection());
            assertEquals("standby", second.servedBy().connection(), "2 per minute, spread: 30 s apart");
            RequestRecord record = metered.findRecord(second.requestId()).orElseThrow();
            assertTrue(record.skipped().get(0).reason().startsWith("over its local rate limit of 2 per 60s"),
                    record.skipped().toString());
            assertEquals(1, sim.account("metered").requestCount());
            assertFalse(record.attempts().isEmpty());
        }
    }
}
