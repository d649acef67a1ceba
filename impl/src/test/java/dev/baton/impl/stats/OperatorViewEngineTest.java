package dev.baton.impl.stats;

import dev.baton.impl.engine.Call;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailureKind;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConfigLoader;
import dev.baton.impl.config.Redactor;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.health.MutableClock;
import dev.baton.impl.openai.OpenAiAdapter;
import dev.baton.impl.openai.OpenAiAdapterFactory;
import dev.baton.impl.record.InMemoryRecordStore;
import dev.baton.record.RequestRecord;
import dev.baton.impl.record.RecordQuery;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What operators see, from a real engine over loopback HTTP: the statistics observer fed by saved
 * records, the health snapshot after failures, an operator's ejection and restoration, and the
 * record search the operator endpoint uses.
 */
class OperatorViewEngineTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final MutableClock clock = new MutableClock();
    private final ConnectionStats stats = new ConnectionStats(clock);
    private FailoverEngine engine;

    @BeforeEach
    void start() {
        Map<String, String> props = new HashMap<>();
        for (String account : List.of("primary", "standby")) {
            props.put("baton.connections." + account + ".provider", "openai");
            props.put("baton.connections." + account + ".base-url", sim.baseUrl(account));
            props.put("baton.connections." + account + ".models", "m");
        }
        props.put("baton.routes.chat.targets", "primary/m, standby/m");
        props.put("baton.routes.chat.same-target-retries", "0");
        props.put("baton.routes.chat.deadline", "5s");
        props.put("baton.routes.chat.attempt-timeout", "2s");
        BatonConfig config = ConfigLoader.load(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(props, "test", 100)).build(), List.of(new OpenAiAdapterFactory()));
        engine = new FailoverEngine(FailoverEngine.Parts.of(config, Adapters.create(List.of(new OpenAiAdapterFactory()),
                EngineFixture.HTTP, config, clock), new InMemoryRecordStore(100), clock, EngineFixture.TIMER)
                .withObserver(stats));
    }

    @Test
    void failuresEjectThePrimaryAndShowInItsCountsAndItsRecords() throws Exception {
        sim.account("primary").setDefault(Behavior.overloaded());
        for (int i = 0; i < 7; i++) {
            assertEquals("standby", ask().servedBy().connection());
        }

        ConnectionHealth.Snapshot primary = engine.health().of("primary").snapshot();
        assertEquals("ejected", primary.rotation());
        assertEquals("failures", primary.ejectedBy());
        assertEquals("server_error", primary.ejectReason());
        ConnectionStats.Window w = stats.window("primary");
        assertEquals(5, w.requests(), "the two requests after the ejection never attempted it");
        assertEquals(5, w.fallbacks());
        assertEquals(5L, w.failures().get(FailureKind.SERVER_ERROR));
        assertEquals(1.0, w.fallbackRate());
        assertEquals(7, stats.window("standby").requests());

        List<RequestRecord> touched = engine.searchRecords(new RecordQuery(null, null, "primary", null, 100));
        assertEquals(5, touched.size());
        List<RequestRecord> all = engine.searchRecords(new RecordQuery(null, null, null, "ok", 100));
        assertEquals(7, all.size());
        assertEquals(2, engine.searchRecords(new RecordQuery(null, null, null, null, 2)).size());
    }

    @Test
    void anOperatorEjectionSendsRequestsToTheStandbyAndRestoreBringsThePrimaryBack() throws Exception {
        assertEquals("primary", ask().servedBy().connection());

        engine.health().eject("primary", Duration.ofMinutes(10), "maintenance");
        assertEquals("standby", ask().servedBy().connection());
        assertEquals("operator", engine.health().of("primary").snapshot().ejectedBy());
        assertEquals(1, sim.account("primary").requestCount(), "no request reached it while ejected");

        engine.health().restore("primary");
        assertEquals("primary", ask().servedBy().connection());
        assertEquals(0, stats.window("primary").fallbacks(), "an operator's ejection is no fallback");
    }

    private ChatResponse ask() throws Exception {
        return engine.complete(Call.of(ChatRequest.of("chat", "Say hello."))).get(10, TimeUnit.SECONDS);
    }
}
