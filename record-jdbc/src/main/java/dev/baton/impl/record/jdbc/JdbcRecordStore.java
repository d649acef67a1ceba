package dev.baton.impl.record.jdbc;

import dev.baton.impl.budget.Account;
import dev.baton.impl.log.RateLimitedLog;
import dev.baton.impl.record.DurableRecordStore;
import dev.baton.impl.record.InMemoryRecordStore;
import dev.baton.impl.record.RecordQuery;
import dev.baton.impl.record.RecordStoreException;
import dev.baton.record.RequestRecord;

import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Keeps request records in a database so they outlive a restart and can be listed across a
 * retention period. {@link #save} never blocks the request path: the record goes into a window of
 * recent records in memory (so it can be fetched at once) and into a bounded queue that one writer
 * thread drains in batches. When the queue is full the record is not written to the database: it
 * stays in the window only, is counted in {@link #dropped()} and a warning is logged (at most one
 * per 10 s). Counters always add up: records saved = written + dropped + failed + queued.
 */
public final class JdbcRecordStore implements DurableRecordStore {

    private static final System.Logger LOG = System.getLogger(JdbcRecordStore.class.getName());
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
    private static final Comparator<RequestRecord> NEWEST_FIRST = Comparator
            .comparing(RequestRecord::startedAt).thenComparing(RequestRecord::id).reversed();

    private final DataSource dataSource;
    private final JdbcRecordSettings settings;
    private final InstantSource clock;
    private final RecordSchema schema;
    private final RecordReads reads;
    private final RecordPruner pruner;
    private final InMemoryRecordStore window;
    private final RecordWriter writer;
    private final Thread thread;
    private final AtomicLong dropped = new AtomicLong();
    private final RateLimitedLog drops = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
    private volatile boolean closed;

    /** Starts a daemon writer thread of its own. */
    public JdbcRecordStore(DataSource dataSource, JdbcRecordSettings settings, InstantSource clock) {
        this(dataSource, settings, clock, JdbcRecordStore::daemon);
    }

    /**
     * @param threads makes the writer thread; in an application server pass a
     *                {@code ManagedThreadFactory}, so the thread is one the container knows about
     */
    public JdbcRecordStore(DataSource dataSource, JdbcRecordSettings settings, InstantSource clock,
                           ThreadFactory threads) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.schema = new RecordSchema(settings.tablePrefix());
        this.reads = new RecordReads(schema);
        this.pruner = new RecordPruner(schema);
        this.window = new InMemoryRecordStore(settings.windowCapacity());
        this.writer = new RecordWriter(dataSource, schema, settings, clock, this::pruneScheduled);
        this.thread = threads.newThread(writer);
        this.thread.start();
    }

    @Override
    public void save(RequestRecord record) {
        Objects.requireNonNull(record, "record");
        window.save(record);
        if (closed || !writer.offer(record)) {
            long total = dropped.incrementAndGet();
            drops.warn(n -> "Baton dropped " + n + " request records (" + total + " in all) "
                    + (closed ? "after the store closed" : "because the write queue is full (capacity "
                    + settings.queueCapacity() + ")") + "; they are not written to the database and are"
                    + " kept only among the " + settings.windowCapacity() + " most recent in memory");
        }
    }

    /** The window of recent records first, then the database. */
    @Override
    public Optional<RequestRecord> find(String id) {
        Optional<RequestRecord> recent = window.find(id);
        if (recent.isPresent()) {
            return recent;
        }
        try (Connection c = schema.open(dataSource)) {
            return reads.find(c, id);
        } catch (SQLException e) {
            throw new RecordStoreException("could not read request record " + id, e);
        }
    }

    /** The database's matches merged with the window's (which holds those not yet written), newest first. */
    @Override
    public List<RequestRecord> search(RecordQuery query) {
        Map<String, RequestRecord> byId = new LinkedHashMap<>();
        for (RequestRecord r : window.search(query)) {
            byId.put(r.id(), r);
        }
        try (Connection c = schema.open(dataSource)) {
            for (RequestRecord r : reads.search(c, query)) {
                byId.putIfAbsent(r.id(), r);
            }
        } catch (SQLException e) {
            throw new RecordStoreException("could not search request records", e);
        }
        List<RequestRecord> found = new ArrayList<>(byId.values());
        found.sort(NEWEST_FIRST);
        return List.copyOf(found.subList(0, Math.min(found.size(), query.limit())));
    }

    /**
     * The estimated cost of the requests {@code caller} sent from {@code since} on, summed in the database: what a
     * gateway key has spent of its budget's current period, read once at start so that a restart does not reset it.
     * Records not yet written are not counted; at start there are none.
     */
    @Override
    public BigDecimal spentSince(Account.Scope scope, String name, Instant since) {
        try (Connection c = schema.open(dataSource)) {
            return reads.spentSince(c, scope, name, since);
        } catch (SQLException e) {
            throw new RecordStoreException("could not sum the spend of the " + scope.word() + " " + name, e);
        }
    }

    /**
     * Deletes the requests older than the retention, with their attempts and skipped targets. The
     * writer thread does this at most once an hour; call it to do it now.
     *
     * @return how many requests were deleted
     */
    public long pruneNow() {
        try (Connection c = schema.open(dataSource)) {
            return pruner.prune(c, clock.instant().minus(settings.retention()));
        } catch (SQLException e) {
            throw new RecordStoreException("could not prune request records", e);
        }
    }

    /** Waits until every record accepted so far is written or failed; false when {@code timeout} passed first. */
    @Override
    public boolean flush(Duration timeout) throws InterruptedException {
        return writer.awaitIdle(timeout);
    }

    /** Records committed to the database. */
    @Override
    public long written() {
        return writer.written();
    }

    /** Records not queued because the queue was full (or the store closed): in memory only. */
    @Override
    public long dropped() {
        return dropped.get();
    }

    /** Records the database refused or could not take after the retries: in memory only, and logged. */
    @Override
    public long failed() {
        return writer.failed();
    }

    /** Records accepted for writing and not yet written or failed. */
    @Override
    public long queued() {
        return writer.pending();
    }

    /**
     * Stops accepting records, writes what is queued within 10 s, then stops the writer. What is
     * still queued after that is counted as failed and logged.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writer.finish();
        try {
            thread.join(CLOSE_WAIT.toMillis());
            if (thread.isAlive()) {
                writer.abort();
                thread.interrupt();
                thread.join(1000);
            }
        } catch (InterruptedException e) {
            writer.abort();
            thread.interrupt();
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            // A save that raced with close may have queued after the writer's last look.
            writer.failLeftovers();
        } else {
            LOG.log(Level.WARNING, "Baton's record writer is still busy in a database call after close; "
                    + queued() + " request records are still pending");
        }
    }

    private void pruneScheduled() {
        long deleted = pruneNow();
        if (deleted > 0) {
            LOG.log(Level.INFO, () -> "Baton pruned " + deleted + " request records older than "
                    + settings.retention());
        }
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r, "baton-record-writer");
        t.setDaemon(true);
        return t;
    }
}
