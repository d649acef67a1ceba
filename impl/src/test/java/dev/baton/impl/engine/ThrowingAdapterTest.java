package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.exception.FailoverException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.record.InMemoryRecordStore;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderTarget;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An adapter that throws instead of failing its future: the request still gets an answer, and the log no key. */
class ThrowingAdapterTest {

    private static final String KEY = "sk-test-secret-thrower-0123456789";

    @Test
    void anAdapterThatThrowsFailsTheAttemptAndItsMessageIsLoggedWithoutTheKey() throws Exception {
        BatonConfig config = EngineFixture.config(Map.of(
                "baton.connections.a.provider", "openai",
                "baton.connections.a.base-url", "http://127.0.0.1:1/v1",
                "baton.connections.a.api-key", KEY,
                "baton.connections.a.models", "m"));
        ProviderAdapter throwing = new ProviderAdapter() {
            @Override
            public CompletableFuture<JsonObject> complete(ProviderTarget target, JsonObject body, Duration timeout) {
                throw new IllegalStateException("could not send with Authorization: Bearer " + target.apiKey());
            }

            @Override
            public Flow.Publisher<JsonObject> stream(ProviderTarget target, JsonObject body, Duration timeout) {
                throw new IllegalStateException("could not send with Authorization: Bearer " + target.apiKey());
            }
        };
        FailoverEngine engine = new FailoverEngine(FailoverEngine.Parts.of(config, Map.of("openai", throwing),
                new InMemoryRecordStore(10), Clock.systemUTC(), EngineFixture.TIMER));
        StringWriter logged = new StringWriter();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.append(r.getMessage()).append('\n');
                if (r.getThrown() != null) {
                    r.getThrown().printStackTrace(new PrintWriter(logged));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger jul = Logger.getLogger(FailoverLoop.class.getName());
        jul.addHandler(capture);
        try {
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> engine.complete(Call.of(ChatRequest.of("m", "hi"))).get(10, TimeUnit.SECONDS));
            assertInstanceOf(FailoverException.class, failed.getCause());
        } finally {
            jul.removeHandler(capture);
        }
        assertTrue(logged.toString().contains("adapter openai threw"), logged.toString());
        assertTrue(logged.toString().contains("IllegalStateException"), logged.toString());
        assertFalse(logged.toString().contains(KEY), logged.toString());
        assertFalse(logged.toString().contains("0123456789"), logged.toString());
    }
}
