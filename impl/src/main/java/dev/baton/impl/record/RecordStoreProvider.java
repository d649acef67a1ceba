package dev.baton.impl.record;

import dev.baton.impl.config.BatonConfig;

import java.time.InstantSource;
import java.util.concurrent.ThreadFactory;

/**
 * A {@link RecordStore} in a module of its own, found with {@link java.util.ServiceLoader} when that module's jar is on
 * the class path: {@code baton-record-jdbc} provides {@code jdbc}. Internal: the modules implementing it are Baton's
 * own and released with it.
 */
public interface RecordStoreProvider {

    /** The value of {@code baton.records.store} that selects this store. */
    String name();

    /**
     * The store {@code config.records()} describes, ready to save.
     *
     * @param threads makes the store's own threads; in an application server the container's
     * @throws dev.baton.exception.FailoverDefinitionException naming the key when what it names cannot be had (a
     *                                                         DataSource that is not bound)
     */
    RecordStore open(BatonConfig config, ThreadFactory threads, InstantSource clock);
}
