package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import jakarta.json.JsonObject;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The record stage: what one request attempted and skipped, saved to the record store and shown to
 * the observer when the request ends. Thread-safe (a caller's cancel may race the loop).
 */
final class Ledger {

    private static final System.Logger LOG = System.getLogger(Ledger.class.getName());

    private final EngineContext ctx;
    private final ChatRequest request;
    private final String routeName;
    private final String id;
    private final String caller;
    private final Instant startedAt;
    private final List<AttemptRecord> attempts = new ArrayList<>();
    private final List<FinalError.Skip> skipped = new ArrayList<>();
    /** What the observer returned at admission, handed back when the request ends. */
    private final Object admission;

    Ledger(EngineContext ctx, ChatRequest request, String routeName, String id, String caller) {
        this.ctx = ctx;
        this.caller = caller;
        this.request = request;
        this.routeName = routeName;
        this.id = id;
        this.startedAt = ctx.clock().instant();
        this.admission = observe(() -> ctx.observer().admitted(id, request));
    }

    Instant startedAt() {
        return startedAt;
    }

    synchronized void attempted(AttemptRecord attempt) {
        attempts.add(attempt);
    }

    synchronized void skipped(FinalError.Skip skip) {
        skipped.add(skip);
    }

    synchronized List<AttemptRecord> attempts() {
        return List.copyOf(attempts);
    }

    synchronized List<FinalError.Skip> skips() {
        return List.copyOf(skipped);
    }

    /**
     * How a request ended, as its record states it. Built by one of the named factories, one per way to end.
     *
     * @param ok               whether the caller got what it asked for
     * @param status           the HTTP status the caller saw (499 when it went away)
     * @param code             the error code, or {@code null} when served
     * @param servedBy         what served (or was streaming when the request broke), or {@code null}
     * @param committed        whether output reached the caller
     * @param firstTokenMillis when the first output reached the caller, or {@code null}
     * @param usage            the provider's usage, or {@code null}
     * @param degraded         whether the route's degraded text answered instead
     * @param cost             the estimated cost, or {@code null}
     */
    record Ending(boolean ok, int status, String code, ServedBy servedBy, boolean committed, Long firstTokenMillis,
                  JsonObject usage, boolean degraded, Cost cost) {

        /** A target served: 200, with its usage and cost, and when its output reached the caller. */
        static Ending served(ServedBy servedBy, AttemptMode.Served served, Cost cost) {
            return new Ending(true, 200, null, servedBy, served.committed(), served.firstTokenMillis(), served.usage(),
                    false, cost);
        }

        /** A stream broke after the commit point: the caller saw 200, then the interruption's error event. */
        static Ending interrupted(ServedBy servedBy, String interruption, Long firstTokenMillis) {
            return new Ending(false, 200, interruption, servedBy, true, firstTokenMillis, null, false, null);
        }

        /** Nothing served: the one most useful error, or the route's degraded text in its place. */
        static Ending unserved(int status, String code, boolean degraded) {
            return new Ending(false, status, code, null, false, null, null, degraded, null);
        }

        /**
         * The caller went away (499).
         *
         * @param servedBy         what was streaming to it, or {@code null}
         * @param firstTokenMillis when output reached it, or {@code null} when none had
         */
        static Ending abandoned(ServedBy servedBy, Long firstTokenMillis) {
            return new Ending(false, 499, "client_closed_request", servedBy, firstTokenMillis != null,
                    firstTokenMillis, null, false, null);
        }
    }

    /** Saves the request's record (a store's failure loses the record, never the answer) and tells the observer. */
    synchronized RequestRecord save(Ending end) {
        RequestRecord record = new RequestRecord(id, startedAt, end.ok(), end.status(), end.code(), request.model(),
                routeName, end.servedBy(), attempts,
                skipped.stream().map(s -> new SkippedTarget(s.target(), s.position(), s.reason())).toList(),
                request.stream(), end.committed(), end.firstTokenMillis(),
                Duration.between(startedAt, ctx.clock().instant()).toMillis(), end.usage(), end.degraded(), end.cost(),
                caller, RequestRecord.REQUEST);
        try {
            ctx.store().save(record);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, id + ": the record store failed; the record is lost", e);
        }
        observe(() -> {
            ctx.observer().finished(record, admission);
            return null;
        });
        return record;
    }

    /** Runs an observer callback; an observer's bug never fails a request. */
    <T> T observe(Supplier<T> callback) {
        try {
            return callback.get();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, id + ": an engine observer failed", e);
            return null;
        }
    }
}
