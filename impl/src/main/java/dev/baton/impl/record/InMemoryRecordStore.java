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
import java.util.function.Predicate;

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

    @Override
    public Optional<RequestRecord> find(String id) {
        return Optional.ofNullable(newestFirst(r -> r.id().equals(id)));
    }

    @Override
    public List<RequestRecord> search(RecordQuery query) {
        List<RequestRecord> found = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        newestFirst(r -> {
            if (seen.add(r.id()) && query.matches(r)) {
                found.add(r);
            }
            return false; // on to the oldest
        });
        found.sort(Comparator.comparing(RequestRecord::startedAt).reversed());
        return List.copyOf(found.subList(0, Math.min(found.size(), query.limit())));
    }

    /** How many records are kept (a record saved twice counts twice until its older place is reused). */
    public int size() {
        return (int) Math.min(saves.get(), ring.length());
    }

    /**
     * Walks the ring in place from the last save back (a request's own record, looked up just after it ends, comes
     * first) and returns the first record {@code stop} accepts, or {@code null}. Saves made meanwhile may or may not be
     * seen.
     */
    private RequestRecord newestFirst(Predicate<RequestRecord> stop) {
        long last = saves.get() - 1;
        int n = size();
        for (long i = last; i > last - n; i--) {
            RequestRecord r = ring.get((int) (i % ring.length()));
            if (r != null && stop.test(r)) {
                return r;
            }
        }
        return null;
    }
}
