package dev.baton.impl.servlet;

import dev.baton.impl.stats.MinuteSeries;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The operator console, registered only when {@code baton.endpoint.console.enabled=true} (which needs the admin key):
 * {@code GET {path}/console} and its script and style sheet, Baton's own files with nothing fetched from elsewhere,
 * and the two data views the page charts, {@code GET {path}/console/series} and {@code GET {path}/console/spend}. The
 * page itself holds no data and opens without a key; every data call, here and on the operator endpoints, takes the
 * admin key ({@link GatewayFilter}). Thread-safe.
 */
public class ConsoleServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final String RESOURCES = "dev/baton/impl/console/";
    /** Everything from this origin, nothing inline, no framing: a page that shows an operator's data. */
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private static final Map<String, String> FILES = Map.of(
            "", "index.html", "/console.js", "console.js", "/console.css", "console.css");
    private static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html", "console.js", "text/javascript", "console.css", "text/css");

    private transient Map<String, byte[]> files;
    private transient MinuteSeries series;

    /** Built with the rest of Baton by its composition root; see {@link Endpoint}. */
    @Inject
    transient Endpoint endpoint;

    /** Whether {@code relative} (below the endpoint's mount point) is one of the page's own files. */
    static boolean isPage(String relative) {
        String sub = relative.startsWith("/console") ? relative.substring("/console".length()) : null;
        return sub != null && (FILES.containsKey(sub) || sub.equals("/"));
    }

    /** Whether {@code relative} is one of the console's data views, which take the admin key. */
    static boolean isData(String relative) {
        return relative.equals("/console/series") || relative.equals("/console/spend");
    }

    @Override
    public void init() throws ServletException {
        EndpointInitializer.requireInjected(endpoint, getServletName());
        series = endpoint.series();
        files = Map.of("index.html", read("index.html"), "console.js", read("console.js"),
                "console.css", read("console.css"));
    }

    private static byte[] read(String name) {
        try (InputStream in = ConsoleServlet.class.getClassLoader().getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCES + name + " is missing from baton-impl");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String sub = req.getPathInfo() == null ? "" : req.getPathInfo();
        resp.setHeader("content-security-policy", CSP);
        resp.setHeader("x-content-type-options", "nosniff");
        resp.setHeader("referrer-policy", "no-referrer");
        resp.setHeader("cache-control", "no-store");
        String file = FILES.get(sub);
        if (sub.equals("/")) {
            // The page's relative URLs (its files, the data) resolve from {path}/console, without the slash.
            resp.sendRedirect(req.getContextPath() + req.getServletPath());
        } else if (file != null) {
            byte[] bytes = files.get(file);
            resp.setContentType(TYPES.get(file));
            resp.setCharacterEncoding("UTF-8");
            resp.setContentLength(bytes.length);
            resp.getOutputStream().write(bytes);
        } else if (sub.equals("/series")) {
            Responses.json(resp, 200, series(lastMinutes(req.getParameter("minutes"))));
        } else if (sub.equals("/spend")) {
            Responses.json(resp, 200, spend());
        } else {
            Responses.error(resp, Rejections.notFound("No such endpoint: GET "
                    + EndpointPaths.quoted(req.getRequestURI())), GatewayFilter.requestId(req));
        }
    }

    /** The {@code minutes} parameter: 1 to 60, 60 when absent or not a number. */
    private static int lastMinutes(String text) {
        try {
            return text == null ? MinuteSeries.MINUTES : Math.max(1, Math.min(MinuteSeries.MINUTES, Integer.parseInt(text)));
        } catch (NumberFormatException e) {
            return MinuteSeries.MINUTES;
        }
    }

    /** {@code GET console/series}: every route's minutes of the last hour, and its targets'. */
    private JsonObject series(int minutes) {
        JsonArrayBuilder routes = Json.array();
        for (MinuteSeries.RouteSeries r : series.routes(minutes)) {
            JsonArrayBuilder targets = Json.array();
            for (MinuteSeries.TargetSeries t : r.targets()) {
                int slash = t.target().indexOf('/');
                targets.add(Json.object().add("target", t.target())
                        .add("connection", t.target().substring(0, Math.max(0, slash)))
                        .add("model", t.target().substring(slash + 1))
                        .add("series", minutes(t.series(), false)));
            }
            routes.add(Json.object().add("route", r.route()).add("series", minutes(r.series(), true))
                    .add("targets", targets));
        }
        return Json.object().add("object", "console.series")
                .add("now", Instant.now().toString())
                .add("since", series.since().toString())
                .add("minute_seconds", 60)
                .add("minutes", minutes)
                .add("routes", routes)
                .build();
    }

    private static JsonArrayBuilder minutes(List<MinuteSeries.Minute> minutes, boolean route) {
        JsonArrayBuilder out = Json.array();
        for (MinuteSeries.Minute m : minutes) {
            JsonObjectBuilder o = Json.object().add("t", m.start().toString());
            if (route) {
                o.add("requests", m.requests()).add("errors", m.errors()).add("fallbacks", m.fallbacks())
                        .add("latency_ms", percentiles(m.latencyP50(), m.latencyP95()))
                        .add("ttft_ms", percentiles(m.firstTokenP50(), m.firstTokenP95()))
                        .add("cost", BigDecimal.valueOf(m.cost()).stripTrailingZeros());
            } else {
                o.add("attempts", m.attempts()).add("failures", m.failures()).add("served", m.served())
                        .add("latency_ms", percentiles(m.latencyP50(), m.latencyP95()));
            }
            out.add(o);
        }
        return out;
    }

    /** Bucket bounds; above the last bound is shown as {@code null} with {@code "over": true}. */
    private static JsonObject percentiles(Long p50, Long p95) {
        return Json.object().add("p50", bound(p50)).add("p95", bound(p95)).build();
    }

    private static JsonValue bound(Long millis) {
        return millis == null || millis == Long.MAX_VALUE ? JsonValue.NULL : Json.JSON.createValue(millis);
    }

    /** {@code GET console/spend}: today's spend by route, model and key, and every budget with what is left. */
    private JsonObject spend() {
        MinuteSeries.Spend.Day today = series.today();
        JsonObjectBuilder out = Json.object().add("object", "console.spend")
                .add("day", today.day().toString())
                .add("since", series.since().toString())
                .add("by_route", totals(today.byRoute()))
                .add("by_model", totals(today.byModel()))
                .add("by_key", totals(today.byKey()));
        out.add("budgets", endpoint.budgets());
        return out.build();
    }

    private static JsonArrayBuilder totals(Map<String, MinuteSeries.Total> totals) {
        JsonArrayBuilder out = Json.array();
        totals.forEach((name, total) -> out.add(Json.object()
                .add("name", name == null ? JsonValue.NULL : Json.JSON.createValue(name))
                .add("cost", total.cost().stripTrailingZeros())
                .add("requests", total.requests())));
        return out;
    }
}
