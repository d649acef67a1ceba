package dev.baton.impl.concurrent;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one timer: cancelled timeouts stay queued only until the next purge, and hold nothing meanwhile. */
class TimerTest {

    private final ScheduledThreadPoolExecutor timer = Threads.timer(Thread::new);
    private final Scheduler scheduler = Scheduler.on(timer);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void aTaskRunsAfterItsDelay() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        scheduler.schedule(Duration.ofMillis(20), ran::countDown);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aCancelledTaskNeverRunsAndIsLetGoOfAtOnce() throws InterruptedException {
        AtomicBoolean ran = new AtomicBoolean();
        Runnable task = () -> ran.set(true);
        WeakReference<Runnable> held = new WeakReference<>(task);
        scheduler.schedule(Duration.ofMillis(50), task).cancel();
        task = null;
        for (int i = 0; i < 50 && held.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(held.get(), "the timer's queue still holds the cancelled task");
        Thread.sleep(100);
        assertFalse(ran.get());
    }

    @Test
    void cancelledTimeoutsLeaveTheQueueAtTheNextPurge() throws InterruptedException {
        for (int i = 0; i < 1_000; i++) {
            scheduler.schedule(Duration.ofMinutes(1), () -> { }).cancel();
        }
        assertTrue(timer.getQueue().size() > 1_000 / 2, "kept until the purge: " + timer.getQueue().size());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (timer.getQueue().size() > 1 && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertTrue(timer.getQueue().size() <= 1, "only the purge itself is left: " + timer.getQueue().size());
    }
}
