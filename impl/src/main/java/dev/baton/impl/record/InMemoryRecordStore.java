package dev.baton.impl.record;

import dev.baton.record.RequestRecord;
import dev.baton.spi.RecordStore;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Keeps the most recent records up to a capacity, evicting the oldest. Thread-safe. */
public final class InMemoryRecordStore implements RecordStore {

    private final Map<String, RequestRecord> records;

    public InMemoryRecordStore(int capacity) {
        this.records = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, RequestRecord> eldest) {
                return size() > capacity;
            }
        };
    }

    @Override
    public synchronized void save(RequestRecord record) {
        records.put(record.id(), record);
    }

    @Override
    public synchronized Optional<RequestRecord> find(String id) {
        return Optional.ofNullable(records.get(id));
    }

    public synchronized int size() {
        return records.size();
    }
}
