package dev.baton.impl.servlet;

import dev.baton.exception.FailoverException;
import dev.baton.impl.balance.Balancer;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.engine.Prober;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;

/** The endpoint's JSON shapes: OpenAI-style errors, the request record and a connection's state. */
final class Json {

    static final JsonProvider JSON = JsonProvider.provider();

    private Json() {
    }

    /** {@code {"error": {"message", "type", "code", "param", "attempts": []}}}, for refusals made before any attempt. */
    static JsonObject error(String message, String type, String code, String param) {
        return error(message, type, code, param, null);
    }

    static JsonObject error(FailoverException e) {
        return error(e.getMessage(), e.type(), e.code(), e.param(), e.record().orElse(null));
    }

    /**
     * The OpenAI error shape, plus {@code attempts}: every attempt, then every target skipped, as
     * data a client can read without parsing the message. Never a key, a prompt or a provider's
     * message (which may quote the prompt); the request record has those messages.
     */
    private static JsonObject error(String message, String type, String code, String param, RequestRecord record) {
        JsonArrayBuilder attempts = JSON.createArrayBuilder();
        if (record != null) {
            for (AttemptRecord a : record.attempts()) {
                attempts.add(JSON.createObjectBuilder()
                        .add("connection", a.connection())
                        .add("model", a.model())
                        .add("position", a.position())
                        .add("retry", a.retry())
                        .add("kind", a.kind() != null ? a.kind().wireName() : a.abandoned() ? "abandoned" : "served")
                        .add("status", a.httpStatus() == 0 ? JsonValue.NULL : JSON.createValue(a.httpStatus()))
                        .add("provider_code", nullable(a.errorCode() != null ? a.errorCode() : a.errorType()))
                        .add("duration_ms", a.latencyMillis())
                        .addNull("reason"));
            }
            for (SkippedTarget s : record.skipped()) {
                int slash = s.target().indexOf('/');
                attempts.add(JSON.createObjectBuilder()
                        .add("connection", s.target().substring(0, slash))
                        .add("model", s.target().substring(slash + 1))
                        .add("position", s.position())
                        .addNull("retry")
                        .add("kind", "skipped")
                        .addNull("status")
                        .addNull("provider_code")
                        .addNull("duration_ms")
                        .add("reason", s.reason()));
            }
        }
        return JSON.createObjectBuilder().add("error", JSON.createObjectBuilder()
                .add("message", message)
                .add("type", type)
                .add("code", nullable(code))
                .add("param", nullable(param))
                .add("attempts", attempts)).build();
    }

    static JsonObject record(RequestRecord r) {
        JsonArrayBuilder attempts = JSON.createArrayBuilder();
        for (AttemptRecord a : r.attempts()) {
            attempts.add(JSON.createObjectBuilder()
                    .add("target", a.target())
                    .add("connection", a.connection())
                    .add("provider", a.provider())
                    .add("model", a.model())
                    .add("route", a.position())
                    .add("retry", a.retry())
                    .add("started_at", a.startedAt().toString())
                    .add("kind", a.kind() == null ? JsonValue.NULL : JSON.createValue(a.kind().wireName()))
                    .add("http_status", a.httpStatus())
                    .add("error_type", nullable(a.errorType()))
                    .add("error_code", nullable(a.errorCode()))
                    .add("message", nullable(a.message()))
                    .add("latency_ms", a.latencyMillis())
                    .add("retry_after_ms", a.retryAfter() == null ? JsonValue.NULL : JSON.createValue(a.retryAfter().toMillis()))
                    .add("after_commit", a.afterCommit())
                    .add("abandoned", a.abandoned()));
        }
        JsonArrayBuilder skipped = JSON.createArrayBuilder();
        for (SkippedTarget s : r.skipped()) {
            skipped.add(JSON.createObjectBuilder().add("target", s.target()).add("route", s.position())
                    .add("reason", s.reason()));
        }
        JsonObjectBuilder out = JSON.createObjectBuilder()
                .add("id", r.id())
                .add("kind", r.kind())
                .add("started_at", r.startedAt().toString())
                .add("status", r.status())
                .add("http_status", r.httpStatus())
                .add("error_code", nullable(r.errorCode()))
                .add("model_requested", nullable(r.modelRequested()))
                .add("route_name", nullable(r.routeName()));
        r.served().ifPresentOrElse(s -> out.add("model", s.model()).add("route", s.position())
                        .add("provider", s.provider()).add("connection", s.connection()),
                () -> out.addNull("model").addNull("route").addNull("provider").addNull("connection"));
        return out.add("attempts", attempts)
                .add("skipped", skipped)
                .add("stream", r.stream())
                .add("committed", r.committed())
                .add("first_token_ms", r.firstTokenMillis() == null ? JsonValue.NULL : JSON.createValue(r.firstTokenMillis()))
                .add("latency_ms", r.latencyMillis())
                .add("usage", r.usage() == null ? JsonValue.NULL : r.usage())
                .add("cost", r.cost() == null ? JsonValue.NULL : JSON.createValue(r.cost().amount()))
                .add("price_source", r.cost() == null ? JsonValue.NULL : JSON.createValue(r.cost().priceSource()))
                .add("cost_currency", r.cost() == null ? JsonValue.NULL : JSON.createValue(r.cost().currency()))
                .add("caller", nullable(r.caller()))
                .build();
    }

    /**
     * A connection as operators see it: configuration that is safe to show (never the key, the base
     * URL or headers, which may carry credentials), its health now, its last background probes
     * (newest first) and its counts over the window.
     */
    static JsonObject connection(ConnectionConfig config, ConnectionHealth.Snapshot health, List<Prober.Probe> probes,
                                 ConnectionStats.Window window) {
        JsonArrayBuilder history = JSON.createArrayBuilder();
        for (Prober.Probe p : probes) {
            history.add(JSON.createObjectBuilder()
                    .add("id", p.id())
                    .add("started_at", p.startedAt().toString())
                    .add("model", p.model())
                    .add("outcome", p.outcome())
                    .add("http_status", p.httpStatus())
                    .add("latency_ms", p.latencyMillis())
                    .add("restored", p.restored()));
        }
        JsonArrayBuilder models = JSON.createArrayBuilder();
        config.models().forEach(models::add);
        JsonObjectBuilder failures = JSON.createObjectBuilder();
        window.failures().forEach((kind, count) -> failures.add(kind.wireName(), count));
        return JSON.createObjectBuilder()
                .add("object", "connection")
                .add("connection", config.name())
                .add("provider", config.provider())
                .add("models", models)
                .add("state", health.rotation())
                .add("ejected_by", nullable(health.ejectedBy()))
                .add("eject_reason", nullable(health.ejectReason()))
                .add("ejected_until", instant(health.ejectedUntil()))
                .add("out_since", instant(health.outSince()))
                .add("probe_due_at", instant(health.probeDueAt()))
                .add("parked_until", instant(health.parkedUntil()))
                .add("parked_for", nullable(health.parkCause()))
                .add("consecutive_failures", health.consecutiveFailures())
                .add("cool_off_ms", health.coolOff().toMillis())
                .add("probe", health.probe())
                .add("probe_interval_ms", health.probeInterval().toMillis())
                .add("next_probe_at", instant("background".equals(health.probe()) ? health.probeDueAt() : null))
                .add("probes", history)
                .add("window", JSON.createObjectBuilder()
                        .add("seconds", window.length().toSeconds())
                        .add("requests", window.requests())
                        .add("fallbacks", window.fallbacks())
                        .add("fallback_rate", BigDecimal.valueOf(window.fallbackRate()).setScale(4, RoundingMode.HALF_UP))
                        .add("failures", failures))
                .build();
    }

    /**
     * {@code connection} with its balancing beside it: attempts in flight per model, and its share
     * in every balanced tier or model it belongs to (as last applied; 0 while it is not usable).
     */
    static JsonObject withBalance(JsonObject connection, Balancer balancer) {
        String name = connection.getString("connection");
        JsonObjectBuilder inFlight = JSON.createObjectBuilder();
        int total = 0;
        for (JsonValue model : connection.getJsonArray("models")) {
            String m = ((JsonString) model).getString();
            int n = balancer.inFlight(name + "/" + m);
            inFlight.add(m, n);
            total += n;
        }
        JsonArrayBuilder shares = JSON.createArrayBuilder();
        for (Balancer.Share s : balancer.shares()) {
            int slash = s.target().indexOf('/');
            if (!s.target().substring(0, slash).equals(name)) {
                continue;
            }
            shares.add(JSON.createObjectBuilder()
                    .add("route", nullable(s.pool().route()))
                    .add("tier", s.pool().route() == null ? JsonValue.NULL : JSON.createValue(s.pool().tier()))
                    .add("model", s.target().substring(slash + 1))
                    .add("balance", s.balance().wireName())
                    .add("share", BigDecimal.valueOf(s.share()).setScale(4, RoundingMode.HALF_UP))
                    .add("error_rate", s.errorRate() < 0 ? JsonValue.NULL
                            : JSON.createValue(BigDecimal.valueOf(s.errorRate()).setScale(4, RoundingMode.HALF_UP)))
                    .add("latency_ms", s.latencyMillis() < 0 ? JsonValue.NULL : JSON.createValue(s.latencyMillis())));
        }
        return JSON.createObjectBuilder(connection)
                .add("in_flight", total)
                .add("in_flight_by_model", inFlight)
                .add("shares", shares)
                .build();
    }

    /** {@code {"object": "list", "data": [...]}}, the OpenAI list shape. */
    static JsonObject list(JsonArrayBuilder data) {
        return JSON.createObjectBuilder().add("object", "list").add("data", data).build();
    }

    static JsonObjectBuilder object() {
        return JSON.createObjectBuilder();
    }

    /** A builder that starts as a copy of {@code object}. */
    static JsonObjectBuilder object(JsonObject object) {
        return JSON.createObjectBuilder(object);
    }

    static JsonArrayBuilder array() {
        return JSON.createArrayBuilder();
    }

    private static JsonValue instant(Instant instant) {
        return instant == null ? JsonValue.NULL : JSON.createValue(instant.toString());
    }

    private static JsonValue nullable(String s) {
        return s == null ? JsonValue.NULL : JSON.createValue(s);
    }
}
