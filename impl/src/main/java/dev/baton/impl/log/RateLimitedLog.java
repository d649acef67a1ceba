package dev.baton.impl.log;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * One message per interval at most, for events that can come thousands of times a second (a full
 * queue under load, a flood of requests that break the same way): the first occurrence is logged
 * at once, later ones are counted and reported with the next message.
 */
public final class RateLimitedLog {

    private final System.Logger log;
    private final long intervalNanos;
    private final AtomicLong lastNanos = new AtomicLong();
    private final AtomicLong sinceLast = new AtomicLong();
    private volatile boolean logged;

    public RateLimitedLog(System.Logger log, long interval, TimeUnit unit) {
        this.log = log;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** @param message given how many events happened since the last message (this one included) */
    public void info(LongFunction<String> message) {
        log(Level.INFO, message, null);
    }

    /** @param message given how many events happened since the last message (this one included) */
    public void warn(LongFunction<String> message) {
        log(Level.WARNING, message, null);
    }

    /** An unexpected failure; the stack trace of the one that gets logged goes with it. */
    public void error(LongFunction<String> message, Throwable thrown) {
        log(Level.ERROR, message, thrown);
    }

    private void log(Level level, LongFunction<String> message, Throwable thrown) {
        sinceLast.incrementAndGet();
        long now = System.nanoTime();
        long last = lastNanos.get();
        if (logged && now - last < intervalNanos) {
            return;
        }
        if (lastNanos.compareAndSet(last, now)) {
            logged = true;
            log.log(level, message.apply(sinceLast.getAndSet(0)), thrown);
        }
    }
}
