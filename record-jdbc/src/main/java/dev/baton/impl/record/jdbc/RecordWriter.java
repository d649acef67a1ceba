package dev.baton.impl.record.jdbc;

import dev.baton.impl.log.RateLimitedLog;
import dev.baton.record.RequestRecord;

import javax.sql.DataSource;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one thread that writes records: drains the queue in batches, one transaction per batch,
 * retries a failed batch with doubling backoff, and prunes at most once an hour. Every record it
 * accepts ends up counted as written or as failed (logged); none disappears silently.
 */
final class RecordWriter implements Runnable {

    private static final System.Logger LOG = System.getLogger(RecordWriter.class.getName());
    static final Duration PRUNE_INTERVAL = Duration.ofHours(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 200;

    private final DataSource dataSource;
    private final RecordSchema schema;
    private final RecordInserts inserts;
    private final JdbcRecordSettings settings;
    private final InstantSource clock;
    private final Runnable prune;
    private final BlockingQueue<RequestRecord> queue;
    private final RateLimitedLog recordFailures = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
    /** Accepted and not yet written or failed: in the queue or in the batch being written. */
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final Object progress = new Object();
    private volatile boolean closing;
    private volatile boolean aborted;
    private Instant lastPrune;

    RecordWriter(DataSource dataSource, RecordSchema schema, JdbcRecordSettings settings, InstantSource clock,
                 Runnable prune) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.inserts = new RecordInserts(schema);
        this.settings = settings;
        this.clock = clock;
        this.prune = prune;
        this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
    }

    /** @return false when the queue is full: the record will not be written */
    boolean offer(RequestRecord record) {
        pending.incrementAndGet();
        if (queue.offer(record)) {
            return true;
        }
        done(1);
        return false;
    }

    long pending() {
        return pending.get();
    }

    long written() {
        return written.get();
    }

    long failed() {
        return failed.get();
    }

    /** Waits until everything accepted so far is written or failed. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            while (pending.get() > 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                progress.wait(left);
            }
            return true;
        }
    }

    /** Write what is queued, then stop. */
    void finish() {
        closing = true;
    }

    /** Stop now: the current batch and whatever is still queued are counted as failed. */
    void abort() {
        closing = true;
        aborted = true;
    }

    @Override
    public void run() {
        try {
            while (!aborted) {
                prunePerhaps();
                RequestRecord first = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closing) {
                        break;
                    }
                    continue;
                }
                List<RequestRecord> batch = new ArrayList<>(settings.batchSize());
                batch.add(first);
                queue.drainTo(batch, settings.batchSize() - 1);
                write(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            failLeftovers();
        }
    }

    /** Counts as failed what is still queued once the writer has stopped (or is stopping). */
    void failLeftovers() {
        List<RequestRecord> left = new ArrayList<>();
        queue.drainTo(left);
        if (!left.isEmpty()) {
            fail(left, "the store closed before they could be written", null);
        }
    }

    private void prunePerhaps() {
        Instant now = clock.instant();
        if (lastPrune != null && now.isBefore(lastPrune.plus(PRUNE_INTERVAL))) {
            return;
        }
        lastPrune = now;
        try {
            prune.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "Baton could not prune old request records; trying again in an hour: " + e
                    + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
        }
    }

    private void write(List<RequestRecord> batch) throws InterruptedException {
        Duration wait = settings.retryBackoff();
        for (int attempt = 0; ; attempt++) {
            try {
                insert(batch);
                written.addAndGet(batch.size());
                done(batch.size());
                return;
            } catch (SQLException e) {
                if (isDataError(e)) {
                    writeOneByOne(batch);
                    return;
                }
                if (attempt >= settings.retryAttempts() || aborted) {
                    fail(batch, "the database failed " + (attempt + 1) + " times", e);
                    return;
                }
                if (attempt == 0) {
                    LOG.log(Level.INFO, () -> "Baton will retry writing " + batch.size()
                            + " request records after a database failure: " + e);
                }
            } catch (RuntimeException e) {
                writeOneByOne(batch);
                return;
            }
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                fail(batch, "the writer was stopped while retrying", null);
                throw e;
            }
            wait = wait.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait.multipliedBy(2);
        }
    }

    /** A batch refused for its data: write each record alone so one bad record fails alone. */
    private void writeOneByOne(List<RequestRecord> batch) {
        for (RequestRecord r : batch) {
            try {
                insert(List.of(r));
                written.incrementAndGet();
            } catch (SQLException | RuntimeException e) {
                failed.incrementAndGet();
                recordFailures.warn(n -> "Baton could not write request record " + r.id() + " (" + n
                        + " such failures since the last message): " + e);
            }
            done(1);
        }
    }

    private void insert(List<RequestRecord> batch) throws SQLException {
        try (Connection c = schema.open(dataSource)) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                inserts.insert(c, batch);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                RecordPruner.rollbackQuietly(c, e);
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        }
    }

    /** Integrity (class 23) or data (class 22) errors: retrying the same rows cannot help. */
    private static boolean isDataError(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            String state = x.getSQLState();
            if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                return true;
            }
        }
        return false;
    }

    private void fail(List<RequestRecord> batch, String why, Exception cause) {
        failed.addAndGet(batch.size());
        done(batch.size());
        LOG.log(Level.WARNING, "Baton could not write " + batch.size() + " request records (first "
                + batch.get(0).id() + "): " + why + "; they are kept only in memory while they remain among the"
                + " most recent " + settings.windowCapacity() + (cause == null ? "" : ": " + cause));
    }

    private void done(int count) {
        if (pending.addAndGet(-count) == 0) {
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }
}
