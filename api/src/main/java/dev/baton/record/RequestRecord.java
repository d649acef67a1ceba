package dev.baton.record;

import dev.baton.Cost;
import dev.baton.ServedBy;
import jakarta.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The stored account of one request: every attempt, what served, when the first output came.
 * Holds no prompt, no completion and no credential.
 *
 * @param id              Baton's request id ({@code req_…})
 * @param startedAt       when the request was admitted
 * @param ok              whether a target served the request completely
 * @param httpStatus      the status an OpenAI-compatible client saw (200 for a stream that broke after commit)
 * @param errorCode       the final error's code, or {@code null} when ok
 * @param modelRequested  the model or route the caller named
 * @param routeName       the route, or {@code null} when the caller named a model
 * @param servedBy        the target that served, or {@code null} when none did
 * @param attempts        every attempt in order
 * @param skipped         targets of the plan that were not attempted, with the reason
 * @param stream          whether the caller asked for a stream
 * @param committed       whether output reached the caller
 * @param firstTokenMillis time from admission to the first output, or {@code null}
 * @param latencyMillis   time from admission to the end
 * @param usage           the provider's usage object, or {@code null}
 * @param degraded        whether the caller got the policy's degraded answer instead of the final error
 * @param cost            the estimated provider cost of what was served, or {@code null} (unpriced model, no
 *                        usage reported, nothing served)
 * @param caller          the named gateway key that sent the request ({@code baton.endpoint.keys.<name>}),
 *                        or {@code null}
 * @param kind            {@value #REQUEST} for a caller's request, {@value #PROBE} for a probe Baton sent itself to an
 *                        ejected connection (one attempt, no caller; not counted in request statistics)
 */
public record RequestRecord(String id, Instant startedAt, boolean ok, int httpStatus, String errorCode,
                            String modelRequested, String routeName, ServedBy servedBy,
                            List<AttemptRecord> attempts, List<SkippedTarget> skipped, boolean stream,
                            boolean committed, Long firstTokenMillis, long latencyMillis, JsonObject usage,
                            boolean degraded, Cost cost, String caller, String kind) {

    /** {@link #kind()} of a caller's request. */
    public static final String REQUEST = "request";
    /** {@link #kind()} of a background probe of an ejected connection. */
    public static final String PROBE = "probe";

    public RequestRecord {
        Objects.requireNonNull(id, "id");
        attempts = List.copyOf(attempts);
        skipped = List.copyOf(skipped);
        if (!REQUEST.equals(kind) && !PROBE.equals(kind)) {
            throw new IllegalArgumentException("kind must be " + REQUEST + " or " + PROBE + " but was " + kind);
        }
    }

    /** {@link #servedBy()}, when a target served. */
    public Optional<ServedBy> served() {
        return Optional.ofNullable(servedBy);
    }

    /** {@code ok}, {@code degraded} or {@code error}, as written in the JSON form of the record. */
    public String status() {
        return ok ? "ok" : degraded ? "degraded" : "error";
    }
}
