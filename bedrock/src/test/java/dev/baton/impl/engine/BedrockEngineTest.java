package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Provider bedrock configured as an application configures it, in the real engine over loopback: its connection keys
 * read and checked by Baton's configuration, SigV4 checked by the simulator, failures classified and failed over.
 */
class BedrockEngineTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    static final String MODEL = "anthropic.claude-haiku-4-5-20251001-v1:0";
    static final String SECRET = "engineTestSecretKey/0123456789abcdefghij";

    private FailoverEngine engine;

    /** Connection "br" (bedrock, signed) first, OpenAI connection "oa" second, route "chat". */
    private Map<String, String> props() {
        Map<String, String> props = new HashMap<>();
        props.put("baton.connections.br.provider", "bedrock");
        props.put("baton.connections.br.base-url", sim.bedrockBaseUrl("br"));
        props.put("baton.connections.br.region", "eu-west-1");
        props.put("baton.connections.br.access-key-id", "AKIDENGINETEST01");
        props.put("baton.connections.br.secret-access-key", SECRET);
        props.put("baton.connections.br.models", MODEL);
        props.putAll(EngineFixture.connections(sim.simulator(), "gpt-4o", "oa"));
        props.put("baton.routes.chat.targets", "br/" + MODEL + ", oa/gpt-4o");
        props.put("baton.routes.chat.retry-backoff", "10ms");
        return props;
    }

    private RequestRecord record(Outcome outcome) {
        return engine.findRecord(outcome.requestId()).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSignedBedrockConnectionServes(Mode mode) {
        sim.account("br").awsCredentials("AKIDENGINETEST01", SECRET);
        engine = EngineFixture.engine(props(), new VirtualTime());

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from br.", outcome.text());
        assertEquals("bedrock", outcome.servedBy().provider());
        assertTrue(sim.account("oa").requests().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aThrottledBedrockFailsOverAndTheSecretIsInNoRecord(Mode mode) {
        sim.account("br").awsCredentials("AKIDENGINETEST01", SECRET).enqueue(Behavior.rateLimited(Duration.ofSeconds(30)));
        engine = EngineFixture.engine(props(), new VirtualTime());

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("oa", outcome.servedBy().connection());
        RequestRecord record = record(outcome);
        assertEquals(FailureKind.RATE_LIMIT, record.attempts().get(0).kind());
        assertFalse(record.toString().contains(SECRET), record::toString);
    }

    @Test
    void aWrongSecretIsACredentialFailureAndFailsOver() {
        sim.account("br").awsCredentials("AKIDENGINETEST01", "the-right-one");
        engine = EngineFixture.engine(props(), new VirtualTime());

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.of("chat", "Say hello."));

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("oa", outcome.servedBy().connection());
        assertEquals(FailureKind.CREDENTIAL, record(outcome).attempts().get(0).kind());
    }

    @Test
    void theRegionIsRequiredAndItsFormatChecked() {
        Map<String, String> noRegion = props();
        noRegion.remove("baton.connections.br.region");
        Map<String, String> badRegion = props();
        badRegion.put("baton.connections.br.region", "Frankfurt");

        String missing = assertThrows(RuntimeException.class, () -> EngineFixture.config(noRegion)).getMessage();
        String wrong = assertThrows(RuntimeException.class, () -> EngineFixture.config(badRegion)).getMessage();

        assertTrue(missing.contains("region"), missing);
        assertTrue(wrong.contains("region") && wrong.contains("us-east-1"), wrong);
        assertFalse(missing.contains(SECRET) || wrong.contains(SECRET));
    }
}
