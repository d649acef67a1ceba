package dev.baton.impl.concurrent;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one timer: tasks run in deadline order, cancelled ones never run, hold nothing and are swept out. */
class TimerTest {

    private final DeadlineTimer timer = DeadlineTimer.start(Thread::new);

    @AfterEach
    void stop() {
        timer.close();
    }

    @Test
    void aTaskRunsAfterItsDelay() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        long start = System.nanoTime();
        timer.schedule(Duration.ofMillis(50), ran::countDown);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "ran early");
    }

    @Test
    void anEarlierTaskScheduledLaterWakesTheTimer() throws InterruptedException {
        timer.schedule(Duration.ofHours(1), () -> { });
        sleepPastTheBusyLooks();
        CountDownLatch ran = new CountDownLatch(1);
        long start = System.nanoTime();
        timer.schedule(Duration.ofMillis(100), ran::countDown);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMillis >= 100 && tookMillis < 2_000, "ran after " + tookMillis + " ms");
    }

    @Test
    void tasksRunInDeadlineOrderAndInScheduleOrderWhenDueTogether() throws InterruptedException {
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(4);
        timer.schedule(Duration.ofMillis(120), () -> { order.add("late"); all.countDown(); });
        timer.schedule(Duration.ZERO, () -> { order.add("now 1"); all.countDown(); });
        timer.schedule(Duration.ofMillis(-5), () -> { order.add("now 2"); all.countDown(); });
        timer.schedule(Duration.ofMillis(60), () -> { order.add("soon"); all.countDown(); });
        assertTrue(all.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("now 1", "now 2", "soon", "late"), order);
    }

    @Test
    void aFailingTaskDoesNotStopTheTimer() throws InterruptedException {
        timer.schedule(Duration.ZERO, () -> {
            throw new IllegalStateException("a failing task, on purpose");
        });
        CountDownLatch ran = new CountDownLatch(1);
        timer.schedule(Duration.ofMillis(10), ran::countDown);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aCancelledTaskNeverRunsAndIsLetGoOfAtOnce() throws InterruptedException {
        AtomicBoolean ran = new AtomicBoolean();
        Runnable task = () -> ran.set(true);
        WeakReference<Runnable> held = new WeakReference<>(task);
        timer.schedule(Duration.ofMillis(50), task).cancel();
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
    void cancelledTimeoutsAreSweptOutOnceTheyOutnumberTheLiveOnes() throws InterruptedException {
        int count = DeadlineTimer.SWEEP_AT * 3;
        for (int i = 0; i < count; i++) {
            timer.schedule(Duration.ofMinutes(1), () -> { }).cancel();
        }
        timer.schedule(Duration.ofMinutes(1), () -> { }); // one live timeout stays
        assertSweptOut();
    }

    @Test
    void cancelledTimeoutsAreSweptOutWhileTheTimerSleepsUntilALaterDeadline() throws InterruptedException {
        timer.schedule(Duration.ofHours(1), () -> { }); // the live one
        sleepPastTheBusyLooks();
        for (int i = 0; i < DeadlineTimer.SWEEP_AT * 3; i++) {
            timer.schedule(Duration.ofHours(2), () -> { }).cancel(); // later than the hour: no reason to wake
        }
        assertSweptOut();
    }

    @Test
    void aClosedTimerRunsNothingMore() throws InterruptedException {
        AtomicBoolean ran = new AtomicBoolean();
        timer.schedule(Duration.ofMillis(50), () -> ran.set(true));
        timer.close();
        Thread.sleep(150);
        assertFalse(ran.get());
    }

    /**
     * Waits for the sweeps to leave the live timeout and at most {@link DeadlineTimer#SWEEP_AT} cancelled ones (a sweep
     * comes only past that many), plus one cancelled after the thread's last look. Unswept, all 3,072 would stay.
     */
    private void assertSweptOut() throws InterruptedException {
        int bound = 1 + DeadlineTimer.SWEEP_AT + 1;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (timer.queued() > bound && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertTrue(timer.queued() <= bound, "cancelled timeouts left queued: " + (timer.queued() - 1));
    }

    /** Long enough for the busy looks to end: the thread then sleeps until the earliest deadline. */
    private static void sleepPastTheBusyLooks() throws InterruptedException {
        Thread.sleep(3 * DeadlineTimer.BUSY_WAKE.toMillis());
    }
}
