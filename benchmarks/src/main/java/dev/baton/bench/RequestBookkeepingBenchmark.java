package dev.baton.bench;

import dev.baton.impl.concurrent.DeadlineTimer;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.record.InMemoryRecordStore;
import dev.baton.record.RequestRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Three pieces of every request's bookkeeping, from two threads at once as on a loaded server: a timeout scheduled
 * and cancelled before it is due (each request has four or five), its record saved to the in-memory store (the
 * default), evicting the oldest, and its unguessable id drawn. The same source runs against two builds' jars to
 * compare them (the id's method is private, so it is reached by reflection).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(2)
@Fork(2)
public class RequestBookkeepingBenchmark {

    private static final Runnable NOTHING = () -> { };
    private static final MethodHandle NEW_ID;

    static {
        try {
            NEW_ID = MethodHandles.privateLookupIn(FailoverEngine.class, MethodHandles.lookup())
                    .findStatic(FailoverEngine.class, "newId", MethodType.methodType(String.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private DeadlineTimer timer;
    private InMemoryRecordStore store;
    private final AtomicLong ids = new AtomicLong();

    @Setup(Level.Trial)
    public void start() {
        timer = DeadlineTimer.start(Thread::new);
        store = new InMemoryRecordStore(1000);
    }

    @TearDown(Level.Trial)
    public void stop() {
        timer.close();
    }

    /** A request's timeout: seconds away, cancelled when the request ends milliseconds later. */
    @Benchmark
    public void timeoutScheduledAndCancelled() {
        Scheduler.Scheduled timeout = timer.schedule(Duration.ofSeconds(5), NOTHING);
        timeout.cancel();
    }

    /** A request's id, drawn when it is admitted. */
    @Benchmark
    public String requestId() throws Throwable {
        return (String) NEW_ID.invokeExact();
    }

    /** A request's record, saved when it ends. */
    @Benchmark
    public void recordSaved() {
        store.save(new RequestRecord("req_" + ids.incrementAndGet(), Instant.EPOCH, true, 200, null, "demo", "demo",
                null, List.of(), List.of(), false, true, null, 1, null, false, null, null, RequestRecord.REQUEST));
    }
}
