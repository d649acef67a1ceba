package dev.baton.impl.concurrent;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The application's one timer thread: every timeout and wait of the engine, the HTTP client and the endpoint.
 *
 * <p>Built for timeouts that are nearly always cancelled long before they are due (a request ends in milliseconds,
 * its timeouts are seconds away):
 * <ul>
 *   <li>a cancel only lets go of the task; the queue drops cancelled entries when they come first, or all at once when
 *       they outnumber the live ones (waking the thread for it when it sleeps until a deadline far off);</li>
 *   <li>while tasks are being scheduled the thread wakes every {@link #BUSY_WAKE} at least, so a new timeout due
 *       later than that never has to wake it; every request's first timeout is often the earliest in the queue.</li>
 * </ul>
 * A {@code ScheduledThreadPoolExecutor} does neither: it is woken by those first timeouts, or, kept from that by
 * leaving cancelled ones queued until a purge, keeps a heap of dead entries that every schedule pays for.
 * With nothing scheduled for a while the thread sleeps until the first live deadline. A task runs on the timer's
 * thread and must not block. Thread-safe.
 */
public final class DeadlineTimer implements Scheduler, AutoCloseable {

    /**
     * While timeouts are being scheduled the thread looks at least this often, so one due later never wakes it. A
     * request's timeouts are seconds long, so this only has to be well under them; it is no shorter because
     * each look is a wake-up of the thread, and at a modest request rate those wake-ups were the timer's largest cost.
     */
    static final Duration BUSY_WAKE = Duration.ofMillis(100);
    /** Cancelled entries are swept out together once there are more of them than this and than live ones. */
    static final int SWEEP_AT = 1024;
    private static final System.Logger LOG = System.getLogger(DeadlineTimer.class.getName());

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private final AtomicInteger cancelled = new AtomicInteger();
    private final Thread thread;
    /** Under {@link #queue}'s lock: when the thread looks at the queue next ({@link System#nanoTime()}). */
    private long nextLook;
    /** Under {@link #queue}'s lock: the thread sleeps until a task is scheduled. */
    private boolean untilWoken = true;
    /** Under {@link #queue}'s lock: something was scheduled since the thread last looked. */
    private boolean busy;
    private long sequence;
    private volatile boolean closed;

    private DeadlineTimer(ThreadFactory threads) {
        thread = Threads.named(threads, "baton-timer-").newThread(this::loop);
    }

    /** A started timer whose thread comes from {@code threads}; {@link #close()} stops it. */
    public static DeadlineTimer start(ThreadFactory threads) {
        DeadlineTimer timer = new DeadlineTimer(threads);
        timer.thread.start();
        return timer;
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        long now = System.nanoTime();
        long due = now + nanos(delay);
        Entry entry;
        boolean wake;
        synchronized (queue) {
            entry = new Entry(task, due, sequence++);
            queue.add(entry);
            busy = true;
            boolean earlier = untilWoken || due - nextLook < 0;
            // Asleep until a deadline far off, the thread would leave cancelled timeouts piling up until then.
            wake = earlier || nextLook - now > BUSY_WAKE.toNanos() && sweepDue();
            if (wake) {
                untilWoken = false;
                nextLook = earlier ? due : now; // one wake-up for a burst of earlier tasks
            }
        }
        if (wake) {
            LockSupport.unpark(thread);
        }
        return entry;
    }

    /** Entries queued, cancelled ones included: for tests. */
    int queued() {
        synchronized (queue) {
            return queue.size();
        }
    }

    /**
     * Whether the thread's last look found nothing new scheduled and so sleeps until the earliest deadline, no longer
     * waking every {@link #BUSY_WAKE}: for tests.
     */
    boolean sleepsUntilEarliestDeadline() {
        synchronized (queue) {
            Entry head = queue.peek();
            return !busy && !untilWoken && head != null && nextLook == head.due;
        }
    }

    /** Stops the thread; tasks not run yet never run. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    private void loop() {
        while (!closed) {
            Runnable due = next();
            if (due != null) {
                try {
                    due.run();
                } catch (RuntimeException | Error e) {
                    LOG.log(System.Logger.Level.ERROR, "a timed task failed", e);
                }
            }
        }
    }

    /** The next task that is due, or {@code null} after sleeping until one may be. */
    private Runnable next() {
        boolean forever;
        long until;
        synchronized (queue) {
            long now = System.nanoTime();
            if (sweepDue()) {
                int before = queue.size();
                queue.removeIf(Entry::isCancelled);
                // Less what was swept, not zero: a timeout cancelled while the sweep ran past it is still queued.
                cancelled.addAndGet(queue.size() - before);
            }
            Entry head;
            while ((head = queue.peek()) != null && (head.isCancelled() || head.due - now <= 0)) {
                queue.poll();
                Runnable task = head.take();
                if (task != null) {
                    return task;
                }
                cancelled.decrementAndGet(); // a cancelled one left the queue
            }
            long busyLook = now + BUSY_WAKE.toNanos();
            forever = head == null && !busy;
            until = head == null || busy && busyLook - head.due < 0 ? busyLook : head.due;
            busy = false;
            untilWoken = forever;
            nextLook = until;
        }
        if (forever) {
            LockSupport.park(this);
        } else {
            LockSupport.parkNanos(this, until - System.nanoTime());
        }
        Thread.interrupted(); // an interrupt would make every park return at once; only close() stops the timer
        return null;
    }

    /** Under {@link #queue}'s lock: whether cancelled entries outnumber the live ones, and are many. */
    private boolean sweepDue() {
        return cancelled.get() > Math.max(SWEEP_AT, queue.size() / 2);
    }

    private static long nanos(Duration delay) {
        if (delay.isNegative()) {
            return 0;
        }
        // Far enough to never come, near enough that deadlines compare without overflow.
        return delay.compareTo(Duration.ofDays(365)) > 0 ? TimeUnit.DAYS.toNanos(365) : delay.toNanos();
    }

    /** A task and when it is due; cancelling lets go of the task, and the entry leaves the queue later. */
    private final class Entry implements Comparable<Entry>, Scheduled {

        private final long due;
        private final long sequence;
        private volatile Runnable task;

        Entry(Runnable task, long due, long sequence) {
            this.task = task;
            this.due = due;
            this.sequence = sequence;
        }

        boolean isCancelled() {
            return task == null;
        }

        /** The task, once: whoever takes it runs it. */
        Runnable take() {
            Runnable t = task;
            task = null;
            return t;
        }

        @Override
        public void cancel() {
            if (task != null) {
                task = null;
                cancelled.incrementAndGet();
            }
        }

        @Override
        public int compareTo(Entry other) {
            int byDue = Long.compare(due - other.due, 0);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }
    }
}
