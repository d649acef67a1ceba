package dev.baton.impl.record;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.OptionalModules;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

/** Opens the record store that {@code baton.records.store} names: in memory, or from the module that provides it. */
public final class RecordStores {

    static final String KEY = "baton.records.store";
    /** The module that provides each store other than {@code memory}. */
    private static final Map<String, String> MODULES = Map.of("jdbc", "baton-record-jdbc");

    private RecordStores() {
    }

    /**
     * The store {@code config} names: {@code memory} keeps the last {@link BatonConfig#recordCapacity()} records.
     *
     * @param threads makes a store's own threads (the JDBC store's writer)
     * @throws FailoverDefinitionException when the store's module is not on the class path, or what the store needs
     *                                     cannot be had
     */
    public static RecordStore open(BatonConfig config, ThreadFactory threads) {
        if ("memory".equals(config.records().store())) {
            return new InMemoryRecordStore(config.recordCapacity());
        }
        return provider(config.records()).open(config, threads, Clock.systemUTC());
    }

    /**
     * Refuses a store whose module is not on the class path; nothing to check for {@code memory}.
     *
     * @throws FailoverDefinitionException naming the key and the module to add
     */
    public static void require(BatonConfig.RecordsConfig records) {
        if (!"memory".equals(records.store())) {
            provider(records);
        }
    }

    private static RecordStoreProvider provider(BatonConfig.RecordsConfig records) {
        String store = records.store();
        String module = MODULES.get(store);
        if (module == null) {
            throw new IllegalArgumentException("no record store is called " + store);
        }
        return OptionalModules.require(RecordStoreProvider.class, RecordStoreProvider::name, KEY, store, module);
    }
}
