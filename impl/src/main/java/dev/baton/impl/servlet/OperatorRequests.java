package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.config.Durations;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.record.RequestRecord;
import dev.baton.impl.record.RecordQuery;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads what operators send: the query of {@code GET /records} and the body of
 * {@code POST /connections/{name}/eject}. Strict on purpose: an unknown or repeated parameter is a
 * 400 naming it, because a misspelt filter would otherwise list everything and look like an answer.
 */
final class OperatorRequests {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_REASON_CHARS = 200;
    private static final Set<String> RECORD_PARAMS = Set.of("from", "to", "connection", "outcome", "limit", "kind");
    private static final Set<String> EJECT_MEMBERS = Set.of("for", "reason");

    private OperatorRequests() {
    }

    /** An operator's ejection: for how long, and why (for the snapshot and the log). */
    record Ejection(Duration duration, String reason) {
    }

    /**
     * @param params      the request's parameters, as the container decoded them
     * @param connections the configured connection names
     * @throws RequestRejectedException 400 naming the parameter at fault
     */
    static RecordQuery recordQuery(Map<String, String[]> params, Set<String> connections) {
        for (Map.Entry<String, String[]> p : params.entrySet()) {
            if (!RECORD_PARAMS.contains(p.getKey())) {
                throw invalid(p.getKey() + ": unknown parameter; expected " + new TreeSet<>(RECORD_PARAMS), p.getKey());
            }
            if (p.getValue().length != 1) {
                throw invalid(p.getKey() + ": give it once", p.getKey());
            }
        }
        Instant from = instant(params, "from");
        Instant to = instant(params, "to");
        if (from != null && to != null && !from.isBefore(to)) {
            throw invalid("from: must be before to (" + from + " is not before " + to + ")", "from");
        }
        String connection = value(params, "connection");
        if (connection != null && !connections.contains(connection)) {
            throw invalid("connection: no connection is named '" + connection + "'; configured: "
                    + new TreeSet<>(connections), "connection");
        }
        String outcome = value(params, "outcome");
        if (outcome != null && !Set.of("ok", "degraded", "error").contains(outcome)) {
            throw invalid("outcome: must be ok, degraded or error but was '" + outcome + "'", "outcome");
        }
        int limit = DEFAULT_LIMIT;
        String limitText = value(params, "limit");
        if (limitText != null) {
            try {
                limit = Integer.parseInt(limitText);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > RecordQuery.MAX_LIMIT) {
                throw invalid("limit: must be a whole number from 1 to " + RecordQuery.MAX_LIMIT + " but was '"
                        + limitText + "'", "limit");
            }
        }
        // Requests unless probes are asked for: background probes of an outage would crowd out the callers' requests.
        String kind = value(params, "kind");
        if (kind == null) {
            kind = RequestRecord.REQUEST;
        } else if (kind.equals("all")) {
            kind = null;
        } else if (!kind.equals(RequestRecord.REQUEST) && !kind.equals(RequestRecord.PROBE)) {
            throw invalid("kind: must be request, probe or all but was '" + kind + "'", "kind");
        }
        return new RecordQuery(from, to, connection, outcome, limit, kind);
    }

    /**
     * The body of an ejection: empty, or {@code {"for": "10m", "reason": "..."}} with both optional.
     *
     * @param defaultDuration how long when {@code for} is absent (the connection's cool-off), capped at the maximum
     * @throws RequestRejectedException 400 naming the member at fault
     */
    static Ejection ejection(byte[] body, Duration defaultDuration) {
        Duration max = ConnectionHealth.MAX_OPERATOR_EJECTION;
        Duration duration = defaultDuration.compareTo(max) > 0 ? max : defaultDuration;
        String reason = "operator request";
        if (new String(body, StandardCharsets.UTF_8).isBlank()) {
            return new Ejection(duration, reason);
        }
        if (!(StrictJson.read(body) instanceof JsonObject json)) {
            throw invalid("The body must be a JSON object such as {\"for\": \"10m\"}.", null);
        }
        for (String member : json.keySet()) {
            if (!EJECT_MEMBERS.contains(member)) {
                throw invalid(member + ": unknown field; expected " + new TreeSet<>(EJECT_MEMBERS), member);
            }
        }
        if (json.containsKey("for")) {
            if (!(json.get("for") instanceof JsonString text)) {
                throw invalid("for: must be a duration string such as \"10m\"", "for");
            }
            try {
                duration = Durations.parse(text.getString());
            } catch (IllegalArgumentException e) {
                throw invalid("for: " + e.getMessage(), "for");
            }
            if (duration.isZero() || duration.isNegative() || duration.compareTo(max) > 0) {
                throw invalid("for: must be more than 0 and at most 24h but was '" + text.getString() + "'", "for");
            }
        }
        if (json.containsKey("reason")) {
            if (!(json.get("reason") instanceof JsonString text) || text.getString().isBlank()
                    || text.getString().length() > MAX_REASON_CHARS || text.getString().chars().anyMatch(Character::isISOControl)) {
                // No control characters: the reason goes into the log as it is.
                throw invalid("reason: must be a string of 1 to " + MAX_REASON_CHARS + " characters on one line", "reason");
            }
            reason = text.getString().strip();
        }
        return new Ejection(duration, reason);
    }

    private static Instant instant(Map<String, String[]> params, String name) {
        String text = value(params, name);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e2) {
                throw invalid(name + ": '" + text + "' is not an ISO-8601 instant such as 2026-03-01T12:00:00Z "
                        + "(a '+' in an offset must be sent as %2B)", name);
            }
        }
    }

    private static String value(Map<String, String[]> params, String name) {
        String[] values = params.get(name);
        return values == null ? null : values[0].strip();
    }

    private static RequestRejectedException invalid(String message, String param) {
        return RequestRejectedException.invalidRequest(message, param);
    }
}
