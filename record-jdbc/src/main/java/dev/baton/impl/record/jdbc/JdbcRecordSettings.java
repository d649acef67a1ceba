package dev.baton.impl.record.jdbc;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a {@link JdbcRecordStore} buffers, batches, retries and prunes.
 *
 * @param queueCapacity  records waiting for the writer; beyond it a record is kept only in memory (dropped)
 * @param batchSize      records written per transaction
 * @param retention      how long a record is kept in the database
 * @param tablePrefix    prepended to every table and index name, so several stores (or tests) can share a schema
 * @param windowCapacity recent records kept in memory, so a record can be fetched before it reaches the database
 * @param retryAttempts  how many times a failed batch is retried before its records are counted as failed
 * @param retryBackoff   the wait before the first retry; doubled for each further retry, up to 10 s
 */
public record JdbcRecordSettings(int queueCapacity, int batchSize, Duration retention, String tablePrefix,
                                 int windowCapacity, int retryAttempts, Duration retryBackoff) {

    /** A letter, then letters, digits or underscores: the prefix is pasted into SQL, so nothing else is let in. */
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,39}");

    public JdbcRecordSettings {
        positive("queueCapacity", queueCapacity);
        positive("batchSize", batchSize);
        positive("windowCapacity", windowCapacity);
        if (retryAttempts < 0) {
            throw new IllegalArgumentException("retryAttempts must be >= 0 but was " + retryAttempts);
        }
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(retryBackoff, "retryBackoff");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive but was " + retention);
        }
        if (retryBackoff.isNegative()) {
            throw new IllegalArgumentException("retryBackoff must not be negative but was " + retryBackoff);
        }
        if (tablePrefix == null || !PREFIX.matcher(tablePrefix).matches()) {
            throw new IllegalArgumentException("tablePrefix must be a letter followed by at most 39 letters, digits"
                    + " or underscores but was '" + tablePrefix + "'");
        }
    }

    /** Queue 10 000, batches of 200, 30 days, {@code baton_}, 1 000 in memory, 5 retries from 500 ms. */
    public static JdbcRecordSettings defaults() {
        return new JdbcRecordSettings(10_000, 200, Duration.ofDays(30), "baton_", 1_000, 5, Duration.ofMillis(500));
    }

    public JdbcRecordSettings withQueueCapacity(int capacity) {
        return new JdbcRecordSettings(capacity, batchSize, retention, tablePrefix, windowCapacity, retryAttempts,
                retryBackoff);
    }

    public JdbcRecordSettings withBatchSize(int size) {
        return new JdbcRecordSettings(queueCapacity, size, retention, tablePrefix, windowCapacity, retryAttempts,
                retryBackoff);
    }

    public JdbcRecordSettings withRetention(Duration keep) {
        return new JdbcRecordSettings(queueCapacity, batchSize, keep, tablePrefix, windowCapacity, retryAttempts,
                retryBackoff);
    }

    public JdbcRecordSettings withTablePrefix(String prefix) {
        return new JdbcRecordSettings(queueCapacity, batchSize, retention, prefix, windowCapacity, retryAttempts,
                retryBackoff);
    }

    public JdbcRecordSettings withWindowCapacity(int capacity) {
        return new JdbcRecordSettings(queueCapacity, batchSize, retention, tablePrefix, capacity, retryAttempts,
                retryBackoff);
    }

    public JdbcRecordSettings withRetries(int attempts, Duration backoff) {
        return new JdbcRecordSettings(queueCapacity, batchSize, retention, tablePrefix, windowCapacity, attempts,
                backoff);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1 but was " + value);
        }
    }
}
