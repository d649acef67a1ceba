package dev.baton.impl.servlet;

import dev.baton.exception.FailoverException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.cluster.ClusterChange;
import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.health.ConnectionHealth;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.record.RequestRecord;
import dev.baton.impl.record.RecordQuery;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The operator endpoints, registered only when an admin key is configured ({@link GatewayFilter}
 * checks it): {@code GET /connections}, {@code GET /connections/{name}},
 * {@code POST /connections/{name}/eject}, {@code POST /connections/{name}/restore} and
 * {@code GET /records}. They read and change process-local state only and never call a provider,
 * so they answer at once; the one body they read (an ejection's) is read without blocking, like a
 * chat body. Thread-safe.
 */
public class OperatorServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger("dev.baton.operator");
    private static final int MAX_BODY_BYTES = 4096;
    /** The body's read limit and the answer, with room to spare: Open Liberty's default for an async request. */
    private static final Duration EJECT_TIMEOUT = Duration.ofSeconds(30);

    private transient FailoverEngine engine;
    private transient ConnectionStats stats;
    private transient ClusterSync cluster;
    private transient Map<String, ConnectionConfig> connections;
    private String path;

    /** Whether {@code relative} (the path below the endpoint's mount point) is one of these endpoints. */
    static boolean handles(String relative) {
        return relative.equals("/connections") || relative.startsWith("/connections/") || relative.equals("/cluster")
                || relative.equals("/records") || relative.startsWith("/records/");
    }

    /** Built with the rest of Baton by its composition root; see {@link Endpoint}. */
    @Inject
    transient Endpoint endpoint;

    @Override
    public void init() throws ServletException {
        EndpointInitializer.requireInjected(endpoint, getServletName());
        engine = endpoint.engine();
        stats = endpoint.stats();
        Map<String, ConnectionConfig> byName = new LinkedHashMap<>();
        endpoint.config().connections().forEach(c -> byName.put(c.name(), c));
        connections = Map.copyOf(byName);
        path = endpoint.settings().path();
        cluster = endpoint.cluster();
    }

    /**
     * {@code GET cluster}: this node, the cluster store and whether it answers, how late other nodes' changes
     * arrived, and the last changes shared from here and learned from elsewhere (which node, what, when).
     */
    private JsonObject cluster() {
        if (cluster == null) {
            return Json.object().add("store", "memory").add("node", JsonValue.NULL)
                    .add("connected", false).build();
        }
        ClusterSync.View view = cluster.view();
        JsonArrayBuilder changes = Json.array();
        for (ClusterChange c : view.changes()) {
            ConnectionHealth.Shared s = c.state();
            changes.add(Json.object()
                    .add("node", c.node())
                    .add("connection", c.connection())
                    .add("event", c.event())
                    .add("at", c.at().toString())
                    .add("learned_at", text(c.learnedAt()))
                    .add("lag_ms", c.learnedAt() == null ? JsonValue.NULL
                            : Json.JSON.createValue(Duration.between(c.at(), c.learnedAt()).toMillis()))
                    .add("state", s.state())
                    .add("ejected_until", text(s.ejectedUntil()))
                    .add("ejected_by", s.ejectedBy() == null ? JsonValue.NULL : Json.JSON.createValue(s.ejectedBy()))
                    .add("parked_until", text(s.parkedUntil())));
        }
        return Json.object()
                .add("store", view.store())
                .add("node", view.node())
                .add("connected", view.connected())
                .add("connected_since", text(view.connectedSince()))
                .add("disconnected_since", text(view.disconnectedSince()))
                .add("last_resync", text(view.lastResync()))
                .add("staleness_ms", Json.object()
                        .add("learned", view.staleness().learned())
                        .add("p50", view.staleness().p50())
                        .add("p99", view.staleness().p99())
                        .add("max", view.staleness().max()))
                .add("changes", changes)
                .build();
    }

    private static JsonValue text(Instant instant) {
        return instant == null ? JsonValue.NULL : Json.JSON.createValue(instant.toString());
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String[] parts = parts(req);
        String id = GatewayFilter.requestId(req);
        try {
            if (parts.length == 1 && parts[0].equals("connections")) {
                JsonArrayBuilder data = Json.array();
                engine.health().snapshots().forEach(s -> data.add(connection(s)));
                Responses.json(resp, 200, Json.list(data));
            } else if (parts.length == 2 && parts[0].equals("connections")) {
                Responses.json(resp, 200, connection(health(parts[1]).snapshot()));
            } else if (parts.length == 1 && parts[0].equals("cluster")) {
                Responses.json(resp, 200, cluster());
            } else if (parts.length == 1 && parts[0].equals("records")) {
                RecordQuery query = OperatorRequests.recordQuery(req.getParameterMap(), connections.keySet());
                JsonArrayBuilder data = Json.array();
                for (RequestRecord r : engine.searchRecords(query)) {
                    data.add(Json.record(r));
                }
                Responses.json(resp, 200, Json.list(data));
            } else if (isAction(parts)) {
                resp.setHeader("allow", "POST");
                Responses.refuse(resp, 405, "invalid_request_error", "method_not_allowed",
                        "Use POST for " + req.getRequestURI() + ".", id);
            } else {
                throw notFound(req);
            }
        } catch (FailoverException e) {
            Responses.error(resp, e, id);
        }
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String[] parts = parts(req);
        String id = GatewayFilter.requestId(req);
        if (!isAction(parts)) {
            if (parts.length >= 1 && parts.length <= 2) {
                resp.setHeader("allow", "GET");
                Responses.refuse(resp, 405, "invalid_request_error", "method_not_allowed",
                        "Use GET for " + req.getRequestURI() + ".", id);
            } else {
                Responses.error(resp, notFound(req), id);
            }
            return;
        }
        String name = parts[1];
        Optional<ConnectionHealth> health = engine.health().find(name);
        if (health.isEmpty()) {
            Responses.error(resp, unknownConnection(name), id);
            return;
        }
        String who = req.getRemoteAddr();
        if (parts[2].equals("restore")) {
            health.get().restore();
            LOG.log(Level.INFO, "operator at {0} restored connection {1}", who, name);
            Responses.json(resp, 200, connection(health.get().snapshot()));
            return;
        }
        AsyncContext async = req.startAsync();
        AsyncOutput output = new AsyncOutput(async, EJECT_TIMEOUT, engine.scheduler(),
                () -> Responses.timedOut(EJECT_TIMEOUT, id), endpoint.openResponses());
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        ServletInputStream in = req.getInputStream();
        long length = req.getContentLengthLong();
        BodyReader.read(in, length, MAX_BODY_BYTES, BodyReader.MAX_READ_TIME, engine.scheduler(), body -> {
            Answer answer;
            try {
                OperatorRequests.Ejection ejection = OperatorRequests.ejection(body, health.get().snapshot().coolOff());
                health.get().eject(ejection.duration(), ejection.reason());
                LOG.log(Level.WARNING, "operator at {0} ejected connection {1} for {2}: {3}", who, name,
                        ejection.duration(), ejection.reason());
                JsonObject json = connection(health.get().snapshot());
                answer = new Answer(200, Map.of("x-request-id", id), json.toString().getBytes(StandardCharsets.UTF_8));
            } catch (Throwable e) { // a refusal, or anything unexpected: the caller gets an answer either way
                answer = Responses.failure(e, id);
            }
            send(response, output, answer);
        }, error -> send(response, output, Responses.failure(error instanceof FailoverException ? error
                : RequestRejectedException.invalidRequest("The request body could not be read.", null), id)));
    }

    private static void send(HttpServletResponse response, AsyncOutput output, Answer answer) {
        answer.applyTo(response);
        output.answer(answer.body());
    }

    private JsonObject connection(ConnectionHealth.Snapshot snapshot) {
        return Json.withBalance(Json.connection(connections.get(snapshot.connection()), snapshot,
                engine.probes(snapshot.connection()), stats.window(snapshot.connection())), engine.balancer());
    }

    private ConnectionHealth health(String name) {
        return engine.health().find(name).orElseThrow(() -> unknownConnection(name));
    }

    /** The path below the mount point in segments: {@code ["connections", "primary", "eject"]}. */
    private String[] parts(HttpServletRequest req) {
        String full = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        String relative = full.startsWith(path) ? full.substring(path.length()) : full;
        String trimmed = relative.replaceAll("^/+|/+$", "");
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/");
    }

    private static boolean isAction(String[] parts) {
        return parts.length == 3 && parts[0].equals("connections")
                && (parts[2].equals("eject") || parts[2].equals("restore"));
    }

    private static RequestRejectedException unknownConnection(String name) {
        return Rejections.notFound("No connection is named `" + name + "`.");
    }

    private static RequestRejectedException notFound(HttpServletRequest req) {
        return Rejections.notFound("No such endpoint: " + req.getMethod() + " " + req.getRequestURI());
    }
}
