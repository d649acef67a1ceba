package dev.baton.impl.record;

import dev.baton.record.RequestRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Keeps the records of the last {@code capacity} saves in a ring: a save is one counter increment and one store, which
 * matters because every request makes one. A keyed map (a linked hash map under a lock, evicting its eldest) cost a
 * loaded server more than the rest of the record: its entries are long-lived, so each put and eviction touched memory
 * no cache held. Finding a record scans the ring from the newest, so a request's own record, looked up just after it
 * ends, is found at once; a search reads the whole ring. Saving the same id again takes a new place; lookups see the
 * newest. Thread-safe without a lock: records are immutable and each slot is read and written whole.
 */
public final class InMemoryRecordStore implements RecordStore {

    private final AtomicReferenceArray<RequestRecord> ring;
    private final AtomicLong saves = new AtomicLong();

    public InMemoryRecordStore(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0 but was " + capacity);
        }
        this.ring = new AtomicReferenceArray<>(capacity);
    }

    @Override
    public void save(RequestRecord record) {
        ring.lazySet((int) (saves.getAndIncrement() % ring.length()), record); // a release store: no reader waits on it
    }

    /** Newest first and in place: the record of a request that just ended is found at once. */
    @Override
    public Optional<RequestRecord> find(String id) {
        long last = saves.get() - 1;
        for (long i = last; i > last - size(); i--) {
            RequestRecord r = ring.get((int) (i % ring.length()));
            if (r != null && r.id().equals(id)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    @Override
    public List<RequestRecord> search(RecordQuery query) {
        List<RequestRecord> found = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (RequestRecord r : newestFirst()) {
            if (seen.add(r.id()) && query.matches(r)) {
                found.add(r);
            }
        }
        found.sort(Comparator.comparing(RequestRecord::startedAt).reversed());
        return List.copyOf(found.subList(0, Math.min(found.size(), query.limit())));
    }

    /** How many records are kept (a record saved twice counts twice until its older place is reused). */
    public int size() {
        return (int) Math.min(saves.get(), ring.length());
    }

    /** A snapshot of the ring from the last save back; saves made meanwhile may or may not be in it. */
    private List<RequestRecord> newestFirst() {
        long last = saves.get() - 1;
        int n = size();
        List<RequestRecord> records = new ArrayList<>(n);
        for (long i = last; i > last - n; i--) {
            RequestRecord r = ring.get((int) (i % ring.length()));
            if (r != null) {
                records.add(r);
            }
        }
        return records;
    }
}
