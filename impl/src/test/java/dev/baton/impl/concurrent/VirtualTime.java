package dev.baton.impl.concurrent;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Virtual time for tests: one clock, ticker and scheduler that never waits. A test moves it with
 * {@link #advance}, which runs every task that falls due on the way, each at its own instant.
 *
 * <p>Time also moves by itself, but only while nothing {@link #hold holds} it: then it jumps
 * straight to the next task, on this clock's own thread. An engine test holds time while an
 * attempt is in flight, so a backoff or a wait for a parked target passes at once, while an
 * attempt's timeout fires only when the test advances past it: real HTTP over loopback and
 * virtual timeouts never race. Tasks already due run whether time is held or not.
 *
 * <p>Thread-safe. The thread that moves time by itself is a daemon that ends when nothing is left
 * to run.
 */
public final class VirtualTime implements InstantSource, Ticker, Scheduler {

    /** A fixed, arbitrary starting point, far from the epoch. */
    public static final Instant START = Instant.parse("2025-03-01T12:00:00Z");

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long nanos;
    private long sequence;
    private int holds;
    private boolean driving;

    @Override
    public Instant instant() {
        return START.plusNanos(nanos());
    }

    @Override
    public long nanos() {
        lock.lock();
        try {
            return nanos;
        } finally {
            lock.unlock();
        }
    }

    /** The virtual time since {@code startNanos}, a reading of {@link #nanos()}. */
    public Duration since(long startNanos) {
        return Duration.ofNanos(nanos() - startNanos);
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable action) {
        lock.lock();
        try {
            Task task = new Task(nanos + Math.max(0, delay.toNanos()), sequence++, action);
            tasks.add(task);
            wake();
            return () -> cancel(task);
        } finally {
            lock.unlock();
        }
    }

    /** Moves time forward by {@code by}, running on this thread every task due on the way. */
    public VirtualTime advance(Duration by) {
        long target;
        lock.lock();
        try {
            target = nanos + by.toNanos();
        } finally {
            lock.unlock();
        }
        Task task;
        while ((task = next(target)) != null) {
            task.action.run();
        }
        lock.lock();
        try {
            nanos = Math.max(nanos, target);
        } finally {
            lock.unlock();
        }
        return this;
    }

    public VirtualTime advanceSeconds(long seconds) {
        return advance(Duration.ofSeconds(seconds));
    }

    /** Stops time from moving by itself until as many {@link #release}s. */
    public void hold() {
        lock.lock();
        try {
            holds++;
        } finally {
            lock.unlock();
        }
    }

    public void release() {
        lock.lock();
        try {
            holds--;
            wake();
        } finally {
            lock.unlock();
        }
    }

    /** Whether no task is waiting to run. */
    public boolean idle() {
        lock.lock();
        try {
            return tasks.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Takes the next task due by {@code target}, moving time to it; {@code null} when none is. */
    private Task next(long target) {
        lock.lock();
        try {
            Task task = tasks.peek();
            if (task == null || task.due > target) {
                return null;
            }
            tasks.poll();
            nanos = Math.max(nanos, task.due);
            return task;
        } finally {
            lock.unlock();
        }
    }

    private void cancel(Task task) {
        lock.lock();
        try {
            tasks.remove(task);
        } finally {
            lock.unlock();
        }
    }

    /** Makes sure the driving thread runs (or looks again) after a change. Called with the lock held. */
    private void wake() {
        changed.signalAll();
        if (!driving && !tasks.isEmpty()) {
            driving = true;
            Thread thread = new Thread(this::drive, "virtual-time");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Runs due tasks, and moves time to the next one whenever nothing holds it. */
    private void drive() {
        while (true) {
            Task task;
            lock.lock();
            try {
                task = tasks.peek();
                while (task == null || task.due > nanos && holds > 0) {
                    if (task == null && !awaitChange()) {
                        driving = false;
                        return;
                    }
                    if (task != null) {
                        awaitChange();
                    }
                    task = tasks.peek();
                }
                tasks.poll();
                nanos = Math.max(nanos, task.due);
            } finally {
                lock.unlock();
            }
            try {
                task.action.run();
            } catch (RuntimeException e) {
                e.printStackTrace(); // a task's bug must not stop time for the rest of the test
            }
        }
    }

    /** Waits for a change, up to a second; {@code false} when none came. */
    private boolean awaitChange() {
        try {
            return changed.await(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private record Task(long due, long sequence, Runnable action) implements Comparable<Task> {
        @Override
        public int compareTo(Task other) {
            return due != other.due ? Long.compare(due, other.due) : Long.compare(sequence, other.sequence);
        }
    }
}
