package dev.baton.impl.concurrent;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The application's one timer thread: every timeout and wait of the engine, the HTTP client and the endpoint.
 *
 * <p>Built for timeouts that are nearly always cancelled long before they are due (a request ends in milliseconds,
 * its timeouts are seconds away):
 * <ul>
 *   <li>scheduling pushes the timeout on an inbox with one compare-and-set: no lock, no heap. The thread empties the
 *       inbox at its next look and only then queues, in deadline order, the timeouts not cancelled by then, which at
 *       a request's pace is hardly any;</li>
 *   <li>while tasks are being scheduled the thread looks at least every {@link #BUSY_WAKE}, so a new timeout due
 *       later than that never has to wake it; every request's first timeout is often the earliest one;</li>
 *   <li>a cancel only lets go of the task; cancelled entries leave the queue when they come first, or together once
 *       the queue has doubled since the last sweep.</li>
 * </ul>
 * A {@code ScheduledThreadPoolExecutor} takes a lock and sifts a heap on every schedule and cancel, and is woken by
 * those first timeouts. With nothing scheduled for a while the thread sleeps until the first live deadline. A task
 * runs on the timer's thread and must not block. Thread-safe.
 */
public final class DeadlineTimer implements Scheduler, AutoCloseable {

    /**
     * While timeouts are being scheduled the thread looks at least this often, so one due later never wakes it. A
     * request's timeouts are seconds long, so this only has to be well under them; it is no shorter because
     * each look is a wake-up of the thread, and at a modest request rate those wake-ups were the timer's largest cost.
     */
    static final Duration BUSY_WAKE = Duration.ofMillis(100);
    private static final long BUSY_NANOS = BUSY_WAKE.toNanos();
    /**
     * The queue is swept of cancelled entries once it holds this many and twice as many as after the last sweep; an
     * inbox this deep wakes a thread that sleeps until a deadline far off, so cancelled timeouts do not pile up there.
     */
    static final int SWEEP_AT = 1024;
    /** Longer than any delay ({@link #nanos} caps them at a year): how far off the next look is with nothing queued. */
    private static final long IDLE_NANOS = TimeUnit.DAYS.toNanos(366);
    private static final System.Logger LOG = System.getLogger(DeadlineTimer.class.getName());

    /** Scheduled since the thread last looked, newest first. */
    private final AtomicReference<Entry> inbox = new AtomicReference<>();
    /** When the thread looks next ({@link System#nanoTime()}); a timeout due earlier moves it and wakes the thread. */
    private final AtomicLong nextLook = new AtomicLong(System.nanoTime() + IDLE_NANOS);
    private final Thread thread;
    private volatile boolean closed;

    // The thread's own.
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private int sweepAt = SWEEP_AT;
    private long sequence;
    /** For tests: the queue's size, and whether the last look found nothing scheduled, at the thread's last look. */
    private volatile int queuedAtLook;
    private volatile boolean sleepsUntilEarliest;

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
        Entry entry = new Entry(task, now + nanos(delay));
        Entry newest;
        do {
            newest = inbox.get();
            entry.next = newest;
            entry.depth = newest == null ? 1 : newest.depth + 1;
        } while (!inbox.compareAndSet(newest, entry));
        for (long look = nextLook.get(); ; look = nextLook.get()) {
            long wakeAt;
            if (entry.due - look < 0) {
                wakeAt = entry.due; // one wake-up for a burst of earlier timeouts: the later ones see it moved
            } else if (entry.depth % SWEEP_AT == 0 && look - now > BUSY_NANOS) {
                wakeAt = now; // asleep until a deadline far off while timeouts pile up in the inbox
            } else {
                break;
            }
            if (nextLook.compareAndSet(look, wakeAt)) {
                LockSupport.unpark(thread);
                break;
            }
        }
        return entry;
    }

    /** Entries queued or in the inbox, cancelled ones included: for tests. */
    int queued() {
        Entry newest = inbox.get();
        return queuedAtLook + (newest == null ? 0 : newest.depth);
    }

    /**
     * Whether the thread's last look found nothing new scheduled and so sleeps until the earliest deadline, no longer
     * waking every {@link #BUSY_WAKE}: for tests.
     */
    boolean sleepsUntilEarliestDeadline() {
        return sleepsUntilEarliest && inbox.get() == null;
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
        long now = System.nanoTime();
        boolean busy = takeInbox();
        if (queue.size() >= sweepAt) {
            queue.removeIf(Entry::isCancelled);
            sweepAt = Math.max(SWEEP_AT, 2 * queue.size());
        }
        Entry head;
        while ((head = queue.peek()) != null && (head.isCancelled() || head.due - now <= 0)) {
            queue.poll();
            Runnable task = head.take();
            if (task != null) {
                return task;
            }
        }
        long until = head == null ? now + IDLE_NANOS : head.due;
        if (busy && now + BUSY_NANOS - until < 0) {
            until = now + BUSY_NANOS;
        }
        queuedAtLook = queue.size();
        sleepsUntilEarliest = !busy && head != null && until == head.due;
        nextLook.set(until);
        // Scheduled since the inbox was taken, those saw the look before this one and woke no one.
        for (Entry e = inbox.get(); e != null; e = e.next) {
            if (e.due - until < 0) {
                return null; // look again at once
            }
        }
        LockSupport.parkNanos(this, until - System.nanoTime());
        Thread.interrupted(); // an interrupt would make every park return at once; only close() stops the timer
        return null;
    }

    /** Queues the inbox's entries not cancelled yet, in the order scheduled; whether there were any. */
    private boolean takeInbox() {
        Entry newest = inbox.getAndSet(null);
        if (newest == null) {
            return false;
        }
        Entry oldest = null;
        while (newest != null) {
            Entry next = newest.next;
            newest.next = oldest;
            oldest = newest;
            newest = next;
        }
        for (Entry e = oldest; e != null; ) {
            Entry next = e.next;
            e.next = null;
            if (!e.isCancelled()) {
                e.sequence = sequence++;
                queue.add(e);
            }
            e = next;
        }
        return true;
    }

    private static long nanos(Duration delay) {
        if (delay.isNegative()) {
            return 0;
        }
        // Far enough to never come, near enough that deadlines compare without overflow.
        return delay.compareTo(Duration.ofDays(365)) > 0 ? TimeUnit.DAYS.toNanos(365) : delay.toNanos();
    }

    /** A task and when it is due; cancelling lets go of the task, and the entry leaves the queue later. */
    private static final class Entry implements Comparable<Entry>, Scheduled {

        private final long due;
        private volatile Runnable task;
        /** In the inbox: the entry scheduled before it, and how many entries it and those before it make. */
        private Entry next;
        private int depth;
        /** In the queue: the order taken from the inbox, for entries due together. */
        private long sequence;

        Entry(Runnable task, long due) {
            this.task = task;
            this.due = due;
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
            task = null;
        }

        @Override
        public int compareTo(Entry other) {
            int byDue = Long.compare(due - other.due, 0);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }
    }
}
