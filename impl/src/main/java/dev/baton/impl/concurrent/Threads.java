package dev.baton.impl.concurrent;

import java.util.concurrent.ThreadFactory;
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
}
