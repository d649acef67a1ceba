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

    /** Saves the request's record (a store's failure loses the record, never the answer) and tells the observer. */
    synchronized RequestRecord save(boolean ok, int status, String code, ServedBy servedBy, boolean committed,
                                    Long firstTokenMillis, JsonObject usage, boolean degraded, Cost cost) {
        RequestRecord record = new RequestRecord(id, startedAt, ok, status, code, request.model(), routeName, servedBy,
                attempts, skipped.stream().map(s -> new SkippedTarget(s.target(), s.position(), s.reason())).toList(),
                request.stream(), committed, firstTokenMillis,
                Duration.between(startedAt, ctx.clock().instant()).toMillis(), usage, degraded, cost, caller,
                RequestRecord.REQUEST);
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
