package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.impl.health.HealthListener;
import dev.baton.spi.ProviderAdapterFactory;
import org.example.echo.EchoAdapterFactory;
import org.example.echo.EchoServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provider SPI is open: the {@code echo} adapter of baton-example-adapter, a jar Baton was not compiled against,
 * is found on the class path, its connection key is validated like Baton's own, and it serves a route over real
 * loopback HTTP through Baton's transport, failing over to OpenAI when its upstream fails.
 */
class ThirdPartyAdapterTest {

    private static EchoServer echo;

    @BeforeAll
    static void start() throws Exception {
        echo = EchoServer.start();
    }

    @AfterAll
    static void stop() {
        echo.close();
    }

    private static Map<String, String> echoRoute() {
        Map<String, String> props = new HashMap<>();
        props.put("baton.connections.parrot.provider", "echo");
        props.put("baton.connections.parrot.base-url", echo.baseUrl("parrot"));
        props.put("baton.connections.parrot.models", "echo-1");
        props.put("baton.connections.parrot.echo-prefix", "echo:");
        props.put("baton.routes.chat.targets", "parrot/echo-1");
        return props;
    }

    @Test
    void theAdapterIsFoundOnTheClassPathBesideTheBuiltInOnes() {
        Map<String, ProviderAdapterFactory> byId = new HashMap<>();
        Adapters.discover().forEach(f -> byId.put(f.id(), f));

        assertInstanceOf(EchoAdapterFactory.class, byId.get("echo"));
        assertTrue(byId.keySet().containsAll(java.util.Set.of("openai", "anthropic", "azure-openai")), byId::toString);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRouteIsServedThroughTheAdapterOverLoopbackHttp(Mode mode) {
        FailoverEngine engine = EngineFixture.engine(echoRoute(), InstantSource.system(), HealthListener.NONE,
                EngineObserver.NONE);

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "hello there"));

        assertTrue(outcome.ok(), () -> String.valueOf(outcome.error()));
        assertEquals("echo:hello there", outcome.text());
        assertEquals("echo", outcome.servedBy().provider());
        assertEquals("parrot", outcome.servedBy().connection());
        var sent = echo.received().get(echo.received().size() - 1);
        assertEquals("echo-1", sent.getString("model"));
        assertEquals("echo:", sent.getString("prefix"), "the declared key reached the adapter as a setting");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void itsFailuresAreClassifiedAndFailedOverLikeAnyProvidersFailures(Mode mode) {
        Map<String, String> props = echoRoute();
        props.put("baton.connections.down.provider", "echo");
        props.put("baton.connections.down.base-url", echo.baseUrl("down"));
        props.put("baton.connections.down.models", "echo-1");
        props.put("baton.routes.chat.targets", "down/echo-1, parrot/echo-1");
        props.put("baton.routes.chat.same-target-retries", "0");
        FailoverEngine engine = EngineFixture.engine(props, InstantSource.system(), HealthListener.NONE,
                EngineObserver.NONE);

        Outcome outcome = mode.call(engine, ChatRequest.of("chat", "hi"));

        assertTrue(outcome.ok(), () -> String.valueOf(outcome.error()));
        assertEquals("parrot", outcome.servedBy().connection());
        var record = engine.findRecord(outcome.requestId()).orElseThrow();
        assertEquals(List.of("down:503:SERVER_ERROR", "parrot:200:null"), record.attempts().stream()
                .map(a -> a.connection() + ":" + a.httpStatus() + ":" + a.kind()).toList());
    }

    @Test
    void itsDeclaredKeyIsValidatedAndOtherKeysAreRefusedNamingTheKey() {
        Map<String, String> props = echoRoute();
        props.put("baton.connections.parrot.echo-prefix", "not/allowed");
        props.put("baton.connections.parrot.echo-prefx", "typo");
        props.put("baton.connections.other.provider", "openai");
        props.put("baton.connections.other.base-url", "http://127.0.0.1:1/v1");
        props.put("baton.connections.other.models", "m");
        props.put("baton.connections.other.echo-prefix", "x");
        props.put("baton.connections.third.provider", "ech0");
        props.put("baton.connections.third.base-url", "http://127.0.0.1:1/v1");
        props.put("baton.connections.third.models", "m");

        String message = assertThrows(FailoverDefinitionException.class, () -> EngineFixture.config(props)).getMessage();

        assertContains(message, "baton.connections.parrot.echo-prefix: 'not/allowed' is not a prefix of 1 to 20");
        assertContains(message, "baton.connections.parrot.echo-prefx: unknown key");
        assertContains(message, "baton.connections.other.echo-prefix: only read for provider 'echo', not 'openai'");
        assertContains(message, "baton.connections.third.provider: 'ech0' is not a known provider; expected one of [");
    }

    private static void assertContains(String message, String part) {
        assertTrue(message.contains(part), () -> "expected '" + part + "' in:\n" + message);
    }
}
