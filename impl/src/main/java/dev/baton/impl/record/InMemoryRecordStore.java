package dev.baton.impl.record;

import dev.baton.record.RequestRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the most recent records up to a capacity, evicting the oldest. Thread-safe, under one lock: a lock-free
 * version (a concurrent map and a ring of ids) measured slower with two threads saving at once
 * ({@code RequestBookkeepingBenchmark}), its four contended atomic updates against one short lock.
 */
public final class InMemoryRecordStore implements RecordStore {

    private final Map<String, RequestRecord> records;

    public InMemoryRecordStore(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0 but was " + capacity);
        }
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

    @Override
    public synchronized List<RequestRecord> search(RecordQuery query) {
        List<RequestRecord> found = new ArrayList<>();
        for (RequestRecord r : records.values()) {
            if (query.matches(r)) {
                found.add(r);
            }
        }
        found.sort(Comparator.comparing(RequestRecord::startedAt).reversed());
        return List.copyOf(found.subList(0, Math.min(found.size(), query.limit())));
    }

    public synchronized int size() {
        return records.size();
    }
}
