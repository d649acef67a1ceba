package dev.baton.impl.record;

import dev.baton.record.RequestRecord;

import java.time.Instant;
import java.util.Objects;

/**
 * Which records to list: those started in {@code [from, to)}, optionally only those with an
 * attempt on {@code connection}, only those with {@code outcome} and only those of {@code kind},
 * newest first, at most {@code limit}.
 *
 * @param from       inclusive start, or {@code null} for no lower bound
 * @param to         exclusive end, or {@code null} for no upper bound
 * @param connection a connection name that must appear in the attempts, or {@code null}
 * @param outcome    {@code ok}, {@code degraded} or {@code error} ({@link dev.baton.record.RequestRecord#status()}), or {@code null}
 * @param limit      1–{@value #MAX_LIMIT}
 * @param kind       {@code request} or {@code probe} ({@link dev.baton.record.RequestRecord#kind()}), or {@code null}
 *                   for both
 */
public record RecordQuery(Instant from, Instant to, String connection, String outcome, int limit, String kind) {

    public static final int MAX_LIMIT = 1000;

    /** A query over records of every kind. */
    public RecordQuery(Instant from, Instant to, String connection, String outcome, int limit) {
        this(from, to, connection, outcome, limit, null);
    }

    public RecordQuery {
        if (kind != null && !(kind.equals(RequestRecord.REQUEST) || kind.equals(RequestRecord.PROBE))) {
            throw new IllegalArgumentException("kind must be request or probe but was " + kind);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + " but was " + limit);
        }
        if (outcome != null && !(outcome.equals("ok") || outcome.equals("degraded") || outcome.equals("error"))) {
            throw new IllegalArgumentException("outcome must be ok, degraded or error but was " + outcome);
        }
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to");
        }
    }

    /** Whether {@code record} is one this query asks for (ignoring the limit). */
    public boolean matches(RequestRecord record) {
        Objects.requireNonNull(record);
        return (from == null || !record.startedAt().isBefore(from))
                && (to == null || record.startedAt().isBefore(to))
                && (outcome == null || outcome.equals(record.status()))
                && (kind == null || kind.equals(record.kind()))
                && (connection == null || record.attempts().stream().anyMatch(a -> connection.equals(a.connection())));
    }
}
