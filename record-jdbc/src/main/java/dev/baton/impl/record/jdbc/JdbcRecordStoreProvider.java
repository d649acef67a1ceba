package dev.baton.impl.record.jdbc;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.concurrent.Threads;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.record.RecordStore;
import dev.baton.impl.record.RecordStoreProvider;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.time.InstantSource;
import java.util.concurrent.ThreadFactory;

/** {@code baton.records.store=jdbc}: the records in the server's DataSource that {@code baton.records.datasource} names. */
public final class JdbcRecordStoreProvider implements RecordStoreProvider {

    @Override
    public String name() {
        return "jdbc";
    }

    /** Looks the DataSource up now, so that one that cannot be found fails the deployment, not a request. */
    @Override
    public RecordStore open(BatonConfig config, ThreadFactory threads, InstantSource clock) {
        BatonConfig.RecordsConfig records = config.records();
        DataSource dataSource;
        try {
            dataSource = (DataSource) new InitialContext().lookup(records.dataSource());
        } catch (NamingException | ClassCastException e) {
            throw new FailoverDefinitionException("baton.records.datasource: no DataSource is bound at '"
                    + records.dataSource() + "' (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
        return new JdbcRecordStore(dataSource, JdbcRecordSettings.defaults()
                .withQueueCapacity(records.queueCapacity())
                .withRetention(records.retention())
                .withTablePrefix(records.tablePrefix())
                .withWindowCapacity(config.recordCapacity()), clock,
                Threads.named(threads, "baton-record-writer-"));
    }
}
