package dev.baton.impl.record.jdbc;

import dev.baton.ServedBy;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConfigLoader;
import dev.baton.impl.record.DurableRecordStore;
import dev.baton.impl.record.RecordStore;
import dev.baton.impl.record.RecordStores;
import dev.baton.record.RequestRecord;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With this module's jar on the class path, baton-impl finds the JDBC store by the name configured, and the store
 * looks its DataSource up in JNDI as in a server: here a naming context of the test's own, holding one H2 database.
 */
class JdbcRecordStoreProviderTest {

    private static final String BOUND = "java:comp/env/jdbc/records";
    private static volatile JdbcDataSource database;

    /** The initial context of this test: {@link #BOUND} names {@link #database}, every other name is unbound. */
    public static final class TestContextFactory implements InitialContextFactory {
        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("lookup") && BOUND.equals(String.valueOf(args[0]))) {
                            return database;
                        }
                        if (method.getName().equals("lookup")) {
                            throw new NameNotFoundException(String.valueOf(args[0]));
                        }
                        return null; // close() and the like
                    });
        }
    }

    private final String previousFactory = System.getProperty(Context.INITIAL_CONTEXT_FACTORY);

    @AfterEach
    void restoreNaming() {
        if (previousFactory == null) {
            System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        } else {
            System.setProperty(Context.INITIAL_CONTEXT_FACTORY, previousFactory);
        }
    }

    private static BatonConfig config(String dataSource) {
        Map<String, String> props = new HashMap<>();
        props.put("baton.connections.a.provider", "openai");
        props.put("baton.connections.a.base-url", "http://127.0.0.1:9/v1");
        props.put("baton.connections.a.api-key", "sk-test-records-0123456789");
        props.put("baton.connections.a.models", "m");
        props.put("baton.records.store", "jdbc");
        props.put("baton.records.datasource", dataSource);
        props.put("baton.records.table-prefix", "provider_test_");
        return ConfigLoader.load(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(props, "test", 100)).build(), Adapters.discover());
    }

    @Test
    void jdbcIsFoundByItsNameAndWritesToTheBoundDataSource() throws Exception {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:provider_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1");
        database.setUser("sa");
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, TestContextFactory.class.getName());
        BatonConfig config = config(BOUND);
        RecordStores.require(config.records());

        RecordStore store = RecordStores.open(config, Thread::new);
        try (DurableRecordStore durable = assertInstanceOf(JdbcRecordStore.class, store)) {
            RequestRecord record = new RequestRecord("req_provider", Instant.now(), true, 200, null, "m", "m",
                    new ServedBy("m", "openai", "a", "a", "m"), List.of(), List.of(), false, false, 10L, 20, null,
                    false, null, null, RequestRecord.REQUEST);
            durable.save(record);
            assertTrue(durable.flush(Duration.ofSeconds(10)), "written within 10 s");
            assertEquals(1, durable.written());
            assertEquals(0, durable.dropped() + durable.failed() + durable.queued());
        }
    }

    @Test
    void aDataSourceThatIsNotBoundIsRefusedNamingItsKey() {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, TestContextFactory.class.getName());
        FailoverDefinitionException e = assertThrows(FailoverDefinitionException.class,
                () -> RecordStores.open(config("java:comp/env/jdbc/missing"), Thread::new));
        assertTrue(e.getMessage().startsWith("baton.records.datasource: no DataSource is bound at"
                + " 'java:comp/env/jdbc/missing'"), e.getMessage());
    }
}
