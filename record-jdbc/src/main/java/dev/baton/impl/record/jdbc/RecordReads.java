package dev.baton.impl.record.jdbc;

import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.impl.budget.Account;
import dev.baton.impl.record.RecordQuery;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rebuilds records from their rows: the request row, then its attempts and skipped targets in
 * sequence order. Instants and Retry-After come back at millisecond precision.
 */
final class RecordReads {

    private static final JsonProvider JSON = JsonProvider.provider();
    /** Ids per {@code IN (…)} when loading the children of a page of requests. */
    private static final int CHILD_CHUNK = 200;
    private static final String REQUEST_COLUMNS = "id, started_at, ok, http_status, error_code, model_requested,"
            + " route_name, served_model, served_provider, served_connection, served_position, served_route, stream,"
            + " committed, first_token_ms, latency_ms, usage_json, degraded, cost, cost_currency, price_source, caller,"
            + " kind";

    private final RecordSchema schema;

    RecordReads(RecordSchema schema) {
        this.schema = schema;
    }

    Optional<RequestRecord> find(Connection c, String id) throws SQLException {
        List<Head> heads = new ArrayList<>(1);
        try (PreparedStatement s = c.prepareStatement(
                "SELECT " + REQUEST_COLUMNS + " FROM " + schema.requests + " WHERE id = ?")) {
            s.setString(1, id);
            readHeads(s, heads);
        }
        return build(c, heads).stream().findFirst();
    }

    /** The database's matches, newest first (ties by id), at most the query's limit. */
    List<RequestRecord> search(Connection c, RecordQuery query) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ").append(prefixed(REQUEST_COLUMNS))
                .append(" FROM ").append(schema.requests).append(" r WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        if (query.from() != null) {
            sql.append(" AND r.started_at >= ?");
            args.add(query.from().toEpochMilli());
        }
        if (query.to() != null) {
            sql.append(" AND r.started_at < ?");
            args.add(query.to().toEpochMilli());
        }
        if (query.outcome() != null) {
            sql.append(" AND r.status = ?");
            args.add(query.outcome());
        }
        if (query.kind() != null) {
            sql.append(" AND r.kind = ?");
            args.add(query.kind());
        }
        if (query.connection() != null) {
            sql.append(" AND EXISTS (SELECT 1 FROM ").append(schema.attempts)
                    .append(" a WHERE a.request_id = r.id AND a.connection = ?)");
            args.add(query.connection());
        }
        sql.append(" ORDER BY r.started_at DESC, r.id DESC FETCH FIRST ? ROWS ONLY");
        args.add(query.limit());
        List<Head> heads = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                s.setObject(i + 1, args.get(i));
            }
            readHeads(s, heads);
        }
        return build(c, heads);
    }

    private List<RequestRecord> build(Connection c, List<Head> heads) throws SQLException {
        if (heads.isEmpty()) {
            return List.of();
        }
        Map<String, List<AttemptRecord>> attempts = new HashMap<>();
        Map<String, List<SkippedTarget>> skipped = new HashMap<>();
        for (int from = 0; from < heads.size(); from += CHILD_CHUNK) {
            List<Head> chunk = heads.subList(from, Math.min(heads.size(), from + CHILD_CHUNK));
            readAttempts(c, chunk, attempts);
            readSkipped(c, chunk, skipped);
        }
        List<RequestRecord> records = new ArrayList<>(heads.size());
        for (Head h : heads) {
            records.add(h.record(attempts.getOrDefault(h.id(), List.of()), skipped.getOrDefault(h.id(), List.of())));
        }
        return records;
    }

    private void readAttempts(Connection c, List<Head> chunk, Map<String, List<AttemptRecord>> into)
            throws SQLException {
        String sql = "SELECT request_id, target, connection, provider, model, position, retry, started_at, latency_ms,"
                + " kind, http_status, error_type, error_code, message, retry_after_ms, after_commit, abandoned FROM "
                + schema.attempts + " WHERE request_id IN (" + placeholders(chunk.size()) + ") ORDER BY request_id, seq";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bindIds(s, chunk);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String kind = rs.getString(10);
                    long retryAfter = rs.getLong(15);
                    Duration retryAfterOrNull = rs.wasNull() ? null : Duration.ofMillis(retryAfter);
                    into.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new AttemptRecord(
                            rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                            rs.getInt(7), Instant.ofEpochMilli(rs.getLong(8)), rs.getLong(9),
                            kind == null ? null : FailureKind.fromWireName(kind), rs.getInt(11), rs.getString(12),
                            rs.getString(13), rs.getString(14), retryAfterOrNull, rs.getBoolean(16),
                            rs.getBoolean(17)));
                }
            }
        }
    }

    private void readSkipped(Connection c, List<Head> chunk, Map<String, List<SkippedTarget>> into)
            throws SQLException {
        String sql = "SELECT request_id, target, position, reason FROM " + schema.skipped
                + " WHERE request_id IN (" + placeholders(chunk.size()) + ") ORDER BY request_id, seq";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bindIds(s, chunk);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    into.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new SkippedTarget(rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
        }
    }

    private static void readHeads(PreparedStatement s, List<Head> into) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                String servedModel = rs.getString(8);
                ServedBy servedBy = servedModel == null ? null : new ServedBy(servedModel, rs.getString(9),
                        rs.getString(10), rs.getString(11), rs.getString(12));
                long firstToken = rs.getLong(15);
                Long firstTokenOrNull = rs.wasNull() ? null : firstToken;
                into.add(new Head(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getBoolean(3),
                        rs.getInt(4), rs.getString(5), rs.getString(6), rs.getString(7), servedBy,
                        rs.getBoolean(13), rs.getBoolean(14), firstTokenOrNull, rs.getLong(16),
                        usage(rs.getString(17)), rs.getBoolean(18), cost(rs.getBigDecimal(19), rs.getString(20),
                        rs.getString(21)), rs.getString(22), rs.getString(23)));
            }
        }
    }

    BigDecimal spentSince(Connection c, Account.Scope scope, String name, Instant since) throws SQLException {
        String column = switch (scope) {
            case KEY -> "caller";
            case ROUTE -> "route_name";
            case CONNECTION -> "served_connection";
        };
        try (PreparedStatement s = c.prepareStatement("SELECT SUM(cost) FROM " + schema.requests
                + " WHERE " + column + " = ? AND started_at >= ?")) {
            s.setString(1, name);
            s.setLong(2, since.toEpochMilli());
            try (ResultSet rs = s.executeQuery()) {
                BigDecimal sum = rs.next() ? rs.getBigDecimal(1) : null;
                return sum == null ? BigDecimal.ZERO : sum;
            }
        }
    }

    private static Cost cost(BigDecimal amount, String currency, String source) {
        return amount == null || currency == null || source == null ? null
                : new Cost(amount.stripTrailingZeros(), currency, source);
    }

    private static JsonObject usage(String text) {
        if (text == null) {
            return null;
        }
        try (JsonReader reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    private static void bindIds(PreparedStatement s, List<Head> chunk) throws SQLException {
        for (int i = 0; i < chunk.size(); i++) {
            s.setString(i + 1, chunk.get(i).id());
        }
    }

    static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    private static String prefixed(String columns) {
        return "r." + columns.replace(", ", ", r.");
    }

    /** A request row before its children are read. */
    private record Head(String id, Instant startedAt, boolean ok, int httpStatus, String errorCode,
                        String modelRequested, String routeName, ServedBy servedBy, boolean stream,
                        boolean committed, Long firstTokenMillis, long latencyMillis, JsonObject usage,
                        boolean degraded, Cost cost, String caller, String kind) {

        RequestRecord record(List<AttemptRecord> attempts, List<SkippedTarget> skipped) {
            return new RequestRecord(id, startedAt, ok, httpStatus, errorCode, modelRequested, routeName, servedBy,
                    attempts, skipped, stream, committed, firstTokenMillis, latencyMillis, usage, degraded, cost,
                    caller, kind);
        }
    }
}
