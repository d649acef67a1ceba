package dev.baton.impl.record;

import dev.baton.impl.budget.Account;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

/**
 * A record store that keeps records beyond the process, such as in a database. It writes them behind a bounded queue,
 * whose counters telemetry reports, and it can sum what a key, route or connection spent, which is read at start so
 * that a restart does not reset a budget. The counters always add up: records saved = written + dropped +
 * failed + queued.
 */
public interface DurableRecordStore extends RecordStore, AutoCloseable {

    /**
     * The estimated cost of the requests from {@code since} on that a gateway key sent, that named a route, or that a
     * connection served ({@code scope}), by its {@code name}. Records not yet written are not counted; at start there
     * are none.
     *
     * @throws RecordStoreException when the store cannot answer
     */
    BigDecimal spentSince(Account.Scope scope, String name, Instant since);

    /** Waits until every record accepted so far is written or failed; false when {@code timeout} passed first. */
    boolean flush(Duration timeout) throws InterruptedException;

    /** Records the store has kept. */
    long written();

    /** Records not queued because the queue was full (or the store closed): in memory only. */
    long dropped();

    /** Records the store refused or could not take after its retries: in memory only, and logged. */
    long failed();

    /** Records accepted for writing and not yet written or failed. */
    long queued();

    /** Stops accepting records and writes what is queued, within a bounded wait. */
    @Override
    void close();
}
