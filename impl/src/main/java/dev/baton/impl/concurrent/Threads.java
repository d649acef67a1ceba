package dev.baton.impl.concurrent;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Baton's few threads, all started with the application: the HTTP client's I/O threads, one timer, and the JDBC
 * record writer when records go to a database. Inside a server they come from its {@code ManagedThreadFactory}, so
 * they are threads the server knows about; outside, they are plain daemon threads.
 */
public final class Threads {

    private Threads() {
    }

    /** Threads from {@code base}, named {@code prefix1}, {@code prefix2}, …, daemons. */
    public static ThreadFactory named(ThreadFactory base, String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = base.newThread(task);
            thread.setName(prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * The one timer: attempt, stream and headers timeouts, backoff and recovery waits, the body read limit. What
     * runs on it completes futures and starts sends; it never blocks. Its thread is started here, not by the first
     * request.
     */
    public static ScheduledThreadPoolExecutor timer(ThreadFactory base) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, named(base, "baton-timer-"));
        // Timeouts are cancelled far more often than they fire. A cancelled one stays queued until the next purge,
        // a second at most: a new timeout then rarely comes first in the queue, and only the first wakes the timer's
        // thread (removed at once, every request's first timeout would wake it).
        timer.scheduleWithFixedDelay(timer::purge, 1, 1, TimeUnit.SECONDS);
        timer.prestartCoreThread();
        return timer;
    }
}
