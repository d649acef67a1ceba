package dev.baton.impl.record.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes requests started before a cutoff, with their attempts and skipped targets. Works in
 * chunks, one transaction each, so a large backlog never holds long locks or a huge transaction,
 * and children go in the same transaction as their request.
 */
final class RecordPruner {

    private static final int CHUNK = 500;

    private final RecordSchema schema;

    RecordPruner(RecordSchema schema) {
        this.schema = schema;
    }

    /** @return how many requests were deleted */
    long prune(Connection c, Instant cutoff) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            long deleted = 0;
            while (true) {
                List<String> ids = oldest(c, cutoff);
                if (ids.isEmpty()) {
                    return deleted;
                }
                delete(c, schema.attempts, "request_id", ids);
                delete(c, schema.skipped, "request_id", ids);
                deleted += delete(c, schema.requests, "id", ids);
                c.commit();
                if (ids.size() < CHUNK) {
                    return deleted;
                }
            }
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c, e);
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private List<String> oldest(Connection c, Instant cutoff) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT id FROM " + schema.requests
                + " WHERE started_at < ? ORDER BY started_at FETCH FIRST " + CHUNK + " ROWS ONLY")) {
            s.setLong(1, cutoff.toEpochMilli());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    private static int delete(Connection c, String table, String column, List<String> ids) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + table + " WHERE " + column + " IN ("
                + RecordReads.placeholders(ids.size()) + ")")) {
            for (int i = 0; i < ids.size(); i++) {
                s.setString(i + 1, ids.get(i));
            }
            return s.executeUpdate();
        }
    }

    static void rollbackQuietly(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
