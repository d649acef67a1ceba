package dev.baton.impl.record;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * One warning per interval at most, for events that can come thousands of times a second (a full
 * queue under load): the first occurrence is logged at once, later ones are counted and reported
 * with the next message.
 */
final class RateLimitedLog {

    private final System.Logger log;
    private final long intervalNanos;
    private final AtomicLong lastNanos = new AtomicLong();
    private final AtomicLong sinceLast = new AtomicLong();
    private volatile boolean logged;

    RateLimitedLog(System.Logger log, long interval, TimeUnit unit) {
        this.log = log;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** @param message given how many events happened since the last message (this one included) */
    void warn(LongFunction<String> message) {
        sinceLast.incrementAndGet();
        long now = System.nanoTime();
        long last = lastNanos.get();
        if (logged && now - last < intervalNanos) {
            return;
        }
        if (lastNanos.compareAndSet(last, now)) {
            logged = true;
            log.log(Level.WARNING, message.apply(sinceLast.getAndSet(0)));
        }
    }
}
