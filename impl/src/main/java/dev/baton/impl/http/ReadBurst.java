package dev.baton.impl.http;

import java.util.ArrayList;
import java.util.List;

/**
 * What one network read of a provider's answer hands on. A read often holds many stream events, and each goes
 * through the engine to the caller's output on its own; flushing the output for each would cost the caller's socket
 * a write per event. Work given to {@link #defer} during a read runs once the read is handed on, so a burst of
 * events leaves in one write (what Netty's {@code channelReadComplete} is for).
 *
 * <p>Confined to the thread that reads: a read runs on one I/O thread, and outside one {@link #defer} says no.
 */
public final class ReadBurst {

    /** Set only on the threads that read (Baton's own): other threads never hold an entry. */
    private static final ThreadLocal<ReadBurst> OF_THREAD = new ThreadLocal<>();

    /** What closes a read inside another: nothing, the outer one runs what was deferred. */
    private static final Read NESTED = () -> { };

    private final List<Runnable> atEnd = new ArrayList<>(4);
    private boolean reading;

    /** What closes the outermost read: runs what was deferred during it. */
    private final Read outermost = () -> {
        reading = false;
        try {
            for (int i = 0; i < atEnd.size(); i++) {
                atEnd.get(i).run();
            }
        } finally {
            atEnd.clear();
        }
    };

    private ReadBurst() {
    }

    /**
     * Starts a read on this thread, ended by closing what it returns (try-with-resources); a read inside another is
     * part of it.
     */
    public static Read read() {
        ReadBurst burst = OF_THREAD.get();
        if (burst == null) {
            burst = new ReadBurst();
            OF_THREAD.set(burst);
        } else if (burst.reading) {
            return NESTED;
        }
        burst.reading = true;
        return burst.outermost;
    }

    /** A read in progress; closing it runs what was deferred during it. */
    public interface Read extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Runs {@code task} when the read on this thread has been handed on.
     *
     * @return false when this thread is not inside a read: the caller does the work now
     */
    public static boolean defer(Runnable task) {
        ReadBurst burst = OF_THREAD.get();
        if (burst == null || !burst.reading) {
            return false;
        }
        burst.atEnd.add(task);
        return true;
    }
}
