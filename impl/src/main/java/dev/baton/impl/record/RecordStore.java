package dev.baton.impl.record;

import dev.baton.record.RequestRecord;

import java.util.List;
import java.util.Optional;

/**
 * Keeps request records. The default is a bounded in-memory store ({@link InMemoryRecordStore}); the JDBC store comes
 * in a module of its own, through {@link RecordStoreProvider}. Implementations must be thread-safe; {@link #save} is
 * called once per request, off the caller's critical path when the implementation can manage it, and must not throw
 * for a full store (drop and count instead).
 */
public interface RecordStore {

    void save(RequestRecord record);

    Optional<RequestRecord> find(String id);

    /** The records {@code query} asks for, newest first. */
    List<RequestRecord> search(RecordQuery query);
}
