package dev.baton.impl.record.jdbc;

import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * Writes records as JDBC batches: one row per request, per attempt and per skipped target. The
 * caller owns the transaction. Free text is cleaned and clipped here, as a last defence: messages
 * are bounded upstream, but a database must never refuse a record for its text.
 */
final class RecordInserts {

    /** Far above anything upstream produces; only a bug elsewhere would reach it. */
    static final int MAX_TEXT = 8192;

    private final String insertRequest;
    private final String insertAttempt;
    private final String insertSkipped;

    RecordInserts(RecordSchema schema) {
        this.insertRequest = "INSERT INTO " + schema.requests + " (id, started_at, ok, status, http_status, error_code,"
                + " model_requested, route_name, served_model, served_provider, served_connection, served_position,"
                + " served_route, stream, committed, first_token_ms, latency_ms, usage_json, degraded, cost,"
                + " cost_currency, price_source, caller, kind)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        this.insertAttempt = "INSERT INTO " + schema.attempts + " (request_id, seq, target, connection, provider, model,"
                + " position, retry, started_at, latency_ms, kind, http_status, error_type, error_code, message,"
                + " retry_after_ms, after_commit, abandoned)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        this.insertSkipped = "INSERT INTO " + schema.skipped + " (request_id, seq, target, position, reason)"
                + " VALUES (?, ?, ?, ?, ?)";
    }

    void insert(Connection c, List<RequestRecord> records) throws SQLException {
        try (PreparedStatement req = c.prepareStatement(insertRequest);
             PreparedStatement att = c.prepareStatement(insertAttempt);
             PreparedStatement skp = c.prepareStatement(insertSkipped)) {
            boolean anyAttempt = false;
            boolean anySkipped = false;
            for (RequestRecord r : records) {
                bindRequest(req, r);
                req.addBatch();
                for (int i = 0; i < r.attempts().size(); i++) {
                    bindAttempt(att, r.id(), i, r.attempts().get(i));
                    att.addBatch();
                    anyAttempt = true;
                }
                for (int i = 0; i < r.skipped().size(); i++) {
                    bindSkipped(skp, r.id(), i, r.skipped().get(i));
                    skp.addBatch();
                    anySkipped = true;
                }
            }
            req.executeBatch();
            if (anyAttempt) {
                att.executeBatch();
            }
            if (anySkipped) {
                skp.executeBatch();
            }
        }
    }

    private static void bindRequest(PreparedStatement s, RequestRecord r) throws SQLException {
        ServedBy by = r.servedBy();
        s.setString(1, r.id());
        s.setLong(2, r.startedAt().toEpochMilli());
        s.setBoolean(3, r.ok());
        s.setString(4, r.status());
        s.setInt(5, r.httpStatus());
        s.setString(6, text(r.errorCode()));
        s.setString(7, r.modelRequested());
        s.setString(8, r.routeName());
        s.setString(9, by == null ? null : by.model());
        s.setString(10, by == null ? null : by.provider());
        s.setString(11, by == null ? null : by.connection());
        s.setString(12, by == null ? null : by.position());
        s.setString(13, by == null ? null : by.routeName());
        s.setBoolean(14, r.stream());
        s.setBoolean(15, r.committed());
        setLong(s, 16, r.firstTokenMillis());
        s.setLong(17, r.latencyMillis());
        s.setString(18, r.usage() == null ? null : r.usage().toString());
        s.setBoolean(19, r.degraded());
        Cost cost = r.cost();
        s.setBigDecimal(20, cost == null ? null : cost.amount());
        s.setString(21, cost == null ? null : cost.currency());
        s.setString(22, cost == null ? null : cost.priceSource());
        s.setString(23, text(r.caller()));
        s.setString(24, r.kind());
    }

    private static void bindAttempt(PreparedStatement s, String id, int seq, AttemptRecord a) throws SQLException {
        s.setString(1, id);
        s.setInt(2, seq);
        s.setString(3, a.target());
        s.setString(4, a.connection());
        s.setString(5, a.provider());
        s.setString(6, a.model());
        s.setString(7, a.position());
        s.setInt(8, a.retry());
        s.setLong(9, a.startedAt().toEpochMilli());
        s.setLong(10, a.latencyMillis());
        s.setString(11, a.kind() == null ? null : a.kind().wireName());
        s.setInt(12, a.httpStatus());
        s.setString(13, text(a.errorType()));
        s.setString(14, text(a.errorCode()));
        s.setString(15, text(a.message()));
        setLong(s, 16, a.retryAfter() == null ? null : a.retryAfter().toMillis());
        s.setBoolean(17, a.afterCommit());
        s.setBoolean(18, a.abandoned());
    }

    private static void bindSkipped(PreparedStatement s, String id, int seq, SkippedTarget t) throws SQLException {
        s.setString(1, id);
        s.setInt(2, seq);
        s.setString(3, t.target());
        s.setString(4, t.position());
        s.setString(5, text(t.reason()));
    }

    private static void setLong(PreparedStatement s, int index, Long value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.BIGINT);
        } else {
            s.setLong(index, value);
        }
    }

    /** Without NUL (PostgreSQL refuses it in text) and at most {@link #MAX_TEXT} characters. */
    static String text(String s) {
        if (s == null) {
            return null;
        }
        String clean = s.indexOf('\0') < 0 ? s : s.replace("\0", "");
        if (clean.length() <= MAX_TEXT) {
            return clean;
        }
        int end = Character.isLowSurrogate(clean.charAt(MAX_TEXT)) ? MAX_TEXT - 1 : MAX_TEXT;
        return clean.substring(0, end);
    }
}
