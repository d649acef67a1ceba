package dev.baton.impl.record;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConfigLoader;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** baton-impl alone: the JDBC store's module is not on this class path, as in a WAR that left it out. */
class RecordStoresTest {

    private static final ThreadFactory NO_THREADS = r -> {
        throw new AssertionError("a store that is not there starts no thread");
    };

    private static BatonConfig config(Map<String, String> records) {
        Map<String, String> props = new HashMap<>(records);
        props.put("baton.connections.a.provider", "openai");
        props.put("baton.connections.a.base-url", "http://127.0.0.1:9/v1");
        props.put("baton.connections.a.api-key", "sk-test-records-0123456789");
        props.put("baton.connections.a.models", "m");
        return ConfigLoader.load(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(props, "test", 100)).build(), Adapters.discover());
    }

    @Test
    void jdbcWithoutItsModuleIsRefusedNamingTheKeyAndTheArtifact() {
        BatonConfig config = config(Map.of("baton.records.store", "jdbc"));
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class,
                () -> RecordStores.open(config, NO_THREADS));
        assertEquals("baton.records.store=jdbc needs baton-record-jdbc on the class path"
                + " (dev.baton:baton-record-jdbc)", e.getMessage());
        assertEquals(e.getMessage(), assertThrows(FailoverDefinitionException.class,
                () -> RecordStores.require(config.records())).getMessage(),
                "the check a deployment can make before opening");
    }

    @Test
    void memoryIsTheDefaultAndNeedsNoModule() {
        BatonConfig config = config(Map.of("baton.records.capacity", "7"));
        assertDoesNotThrow(() -> RecordStores.require(config.records()));
        assertInstanceOf(InMemoryRecordStore.class, RecordStores.open(config, NO_THREADS));
    }
}
