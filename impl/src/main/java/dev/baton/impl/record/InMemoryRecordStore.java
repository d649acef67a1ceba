package dev.baton.impl.record;

import dev.baton.record.RequestRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Keeps the most recent records up to a capacity, evicting the oldest. Thread-safe without a lock: every request
 * saves a record, from whichever thread ended it, and a lock shared by all of them was a point where they waited.
 * The ids are kept in a ring in the order saved; a new record takes the slot of the one it evicts.
 */
public final class InMemoryRecordStore implements RecordStore {

    private final Map<String, RequestRecord> records;
    private final AtomicReferenceArray<String> ring;
    private final AtomicLong saved = new AtomicLong();

    public InMemoryRecordStore(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0 but was " + capacity);
        }
        this.records = new ConcurrentHashMap<>(Math.min(capacity, 1024));
        this.ring = new AtomicReferenceArray<>(capacity);
    }

    @Override
    public void save(RequestRecord record) {
        if (records.put(record.id(), record) != null) {
            return; // saved again under its id: it keeps its place
        }
        int slot = (int) (saved.getAndIncrement() % ring.length());
        String evicted = ring.getAndSet(slot, record.id());
        if (evicted != null) {
            records.remove(evicted);
        }
    }

    @Override
    public Optional<RequestRecord> find(String id) {
        return Optional.ofNullable(records.get(id));
    }

    @Override
    public List<RequestRecord> search(RecordQuery query) {
        List<RequestRecord> found = new ArrayList<>();
        for (RequestRecord r : records.values()) {
            if (query.matches(r)) {
                found.add(r);
            }
        }
        found.sort(Comparator.comparing(RequestRecord::startedAt).reversed());
        return List.copyOf(found.subList(0, Math.min(found.size(), query.limit())));
    }

    public int size() {
        return records.size();
    }
}
