package dev.baton.impl.record.jdbc;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The names of one store's tables and their creation when absent. The SQL keeps to what PostgreSQL
 * and H2 2.x (default and PostgreSQL modes) both accept: unbounded VARCHAR, BIGINT epoch
 * milliseconds, BOOLEAN, INTEGER, no foreign keys (the store deletes children itself).
 */
final class RecordSchema {

    final String requests;
    final String attempts;
    final String skipped;
    private final List<String> ddl;
    /** {@code table.column} of each column added by an ALTER in {@link #ddl}: a table without one is migrated. */
    private final List<String> newestColumns;
    private volatile boolean ready;

    RecordSchema(String prefix) {
        this.requests = prefix + "requests";
        this.attempts = prefix + "attempts";
        this.skipped = prefix + "skipped";
        this.ddl = List.of(
                "CREATE TABLE IF NOT EXISTS " + requests + " ("
                        + "id VARCHAR NOT NULL PRIMARY KEY, "
                        + "started_at BIGINT NOT NULL, "
                        + "ok BOOLEAN NOT NULL, "
                        + "status VARCHAR NOT NULL, "
                        + "http_status INTEGER NOT NULL, "
                        + "error_code VARCHAR, "
                        + "model_requested VARCHAR, "
                        + "route_name VARCHAR, "
                        + "served_model VARCHAR, "
                        + "served_provider VARCHAR, "
                        + "served_connection VARCHAR, "
                        + "served_position VARCHAR, "
                        + "served_route VARCHAR, "
                        + "stream BOOLEAN NOT NULL, "
                        + "committed BOOLEAN NOT NULL, "
                        + "first_token_ms BIGINT, "
                        + "latency_ms BIGINT NOT NULL, "
                        + "usage_json VARCHAR, "
                        + "degraded BOOLEAN NOT NULL, "
                        + "kind VARCHAR DEFAULT 'request' NOT NULL, "
                        + "cost NUMERIC(30, 12), "
                        + "cost_currency VARCHAR, "
                        + "price_source VARCHAR, "
                        + "caller VARCHAR)",
                "CREATE TABLE IF NOT EXISTS " + attempts + " ("
                        + "request_id VARCHAR NOT NULL, "
                        + "seq INTEGER NOT NULL, "
                        + "target VARCHAR NOT NULL, "
                        + "connection VARCHAR, "
                        + "provider VARCHAR, "
                        + "model VARCHAR, "
                        + "position VARCHAR, "
                        + "retry INTEGER NOT NULL, "
                        + "started_at BIGINT NOT NULL, "
                        + "latency_ms BIGINT NOT NULL, "
                        + "kind VARCHAR, "
                        + "http_status INTEGER NOT NULL, "
                        + "error_type VARCHAR, "
                        + "error_code VARCHAR, "
                        + "message VARCHAR, "
                        + "retry_after_ms BIGINT, "
                        + "after_commit BOOLEAN NOT NULL, "
                        + "abandoned BOOLEAN NOT NULL, "
                        + "PRIMARY KEY (request_id, seq))",
                "CREATE TABLE IF NOT EXISTS " + skipped + " ("
                        + "request_id VARCHAR NOT NULL, "
                        + "seq INTEGER NOT NULL, "
                        + "target VARCHAR, "
                        + "position VARCHAR, "
                        + "reason VARCHAR, "
                        + "PRIMARY KEY (request_id, seq))",
                "CREATE INDEX IF NOT EXISTS " + requests + "_started ON " + requests + " (started_at)",
                "CREATE INDEX IF NOT EXISTS " + attempts + "_connection ON " + attempts + " (connection)",
                // Columns added since the first release: a table created before gets them here (see tablesExist); for
                // a new table the columns are already there and the statements do nothing (H2 would copy the table).
                "ALTER TABLE " + requests + " ADD COLUMN IF NOT EXISTS kind VARCHAR DEFAULT 'request' NOT NULL",
                "ALTER TABLE " + requests + " ADD COLUMN IF NOT EXISTS cost NUMERIC(30, 12)",
                "ALTER TABLE " + requests + " ADD COLUMN IF NOT EXISTS cost_currency VARCHAR",
                "ALTER TABLE " + requests + " ADD COLUMN IF NOT EXISTS price_source VARCHAR",
                "ALTER TABLE " + requests + " ADD COLUMN IF NOT EXISTS caller VARCHAR");
        this.newestColumns = List.of(requests + ".kind", requests + ".cost", requests + ".cost_currency",
                requests + ".price_source", requests + ".caller");
    }

    /** A connection from {@code dataSource}, with the tables created if this store has not yet made sure of them. */
    Connection open(DataSource dataSource) throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            ensure(c);
            return c;
        } catch (SQLException | RuntimeException e) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Creates what is missing. Safe when several servers start at once: PostgreSQL's
     * {@code IF NOT EXISTS} is not atomic, so a creation that loses the race fails with a duplicate
     * error; the statement is then run again, when the winner's object exists and it is a no-op.
     */
    void ensure(Connection c) throws SQLException {
        if (ready) {
            return;
        }
        synchronized (this) {
            if (ready) {
                return;
            }
            boolean autoCommit = c.getAutoCommit();
            if (!autoCommit) {
                c.setAutoCommit(true);
            }
            try {
                if (!tablesExist(c)) {
                    for (String sql : ddl) {
                        executeRetrying(c, sql);
                    }
                }
            } finally {
                if (!autoCommit) {
                    c.setAutoCommit(false);
                }
            }
            ready = true;
        }
    }

    /**
     * Pre-created tables need no CREATE privilege: look before creating. Tables from an older
     * release lack the newest columns, and then the DDL runs (every statement is idempotent).
     */
    private boolean tablesExist(Connection c) {
        List<String> selects = new ArrayList<>();
        for (String table : List.of(requests, attempts, skipped)) {
            selects.add("SELECT 1 FROM " + table + " WHERE 1 = 0");
        }
        for (String column : newestColumns) {
            int dot = column.lastIndexOf('.');
            selects.add("SELECT " + column.substring(dot + 1) + " FROM " + column.substring(0, dot) + " WHERE 1 = 0");
        }
        for (String select : selects) {
            try (Statement s = c.createStatement()) {
                s.executeQuery(select).close();
            } catch (SQLException absent) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs {@code sql}, again after a pause when it fails, up to four times: a statement that lost a race with another
     * server's DDL (a duplicate, or on H2 a table another session is still creating) succeeds or is a no-op once the
     * winner's work is visible. A loaded machine needed more than one 50 ms pause (H2, four racing servers).
     */
    private static void executeRetrying(Connection c, String sql) throws SQLException {
        SQLException failure = null;
        for (int attempt = 0; ; attempt++) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
                return;
            } catch (SQLException e) {
                if (failure != null) {
                    e.addSuppressed(failure);
                }
                failure = e;
            }
            if (attempt == 3) {
                throw failure;
            }
            try {
                Thread.sleep(50L << attempt); // 50, 100, 200 ms
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure;
            }
        }
    }
}
