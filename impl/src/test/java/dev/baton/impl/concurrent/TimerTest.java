package dev.baton.impl.concurrent;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one timer: tasks run in deadline order, cancelled ones never run, hold nothing and are swept out. */
class TimerTest {

    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final DeadlineTimer timer = DeadlineTimer.start(task -> {
        Thread thread = new Thread(task);
        threads.add(thread);
        return thread;
    });

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
        awaitTheBusyLooksEnd();
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
    void tasksScheduledFromManyThreadsAtOnceAllRunAndNoneEarly() throws Exception {
        int threads = 4;
        int perThread = 5_000;
        CountDownLatch all = new CountDownLatch(threads * perThread);
        AtomicInteger early = new AtomicInteger();
        List<Thread> schedulers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread scheduler = new Thread(() -> {
                Random random = new Random(seed);
                for (int i = 0; i < perThread; i++) {
                    long delayNanos = TimeUnit.MICROSECONDS.toNanos(random.nextInt(20_000));
                    long due = System.nanoTime() + delayNanos;
                    Scheduler.Scheduled s = timer.schedule(Duration.ofNanos(delayNanos), () -> {
                        if (System.nanoTime() - due < 0) {
                            early.incrementAndGet();
                        }
                        all.countDown();
                    });
                    if (i % 3 == 0) { // most timeouts are cancelled; these are scheduled again at once
                        s.cancel();
                        timer.schedule(Duration.ofNanos(delayNanos), all::countDown);
                    }
                }
            });
            scheduler.start();
            schedulers.add(scheduler);
        }
        for (Thread t : schedulers) {
            t.join();
        }
        assertTrue(all.await(5, TimeUnit.SECONDS), all.getCount() + " tasks never ran: a wake-up was lost");
        assertEquals(0, early.get(), "tasks ran before they were due");
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
        Await.until("the timer lets go of the cancelled task", () -> {
            System.gc();
            return held.get() == null;
        }, Duration.ofSeconds(5));
        assertNull(held.get(), "the timer's queue still holds the cancelled task");
        // Tasks run in deadline order: once one due after the cancelled task has run, that one would have too.
        CountDownLatch later = new CountDownLatch(1);
        timer.schedule(Duration.ofMillis(60), later::countDown);
        assertTrue(later.await(5, TimeUnit.SECONDS));
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
        awaitTheBusyLooksEnd();
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
        Thread thread = threads.get(0);
        thread.join(TimeUnit.SECONDS.toMillis(5));
        assertFalse(thread.isAlive(), "the timer's thread still runs after close()");
        assertFalse(ran.get(), "a task ran after close()");
    }

    /**
     * Waits for the sweeps to leave the live timeout and at most {@link DeadlineTimer#SWEEP_AT} cancelled ones (a sweep
     * comes only past that many), plus one cancelled after the thread's last look. Unswept, all 3,072 would stay.
     */
    private void assertSweptOut() throws InterruptedException {
        int bound = 1 + DeadlineTimer.SWEEP_AT + 1;
        Await.until("no more than " + bound + " timeouts left queued", () -> timer.queued() <= bound,
                Duration.ofSeconds(5));
    }

    /** Waits for the busy looks to end: the thread then sleeps until the earliest deadline. */
    private void awaitTheBusyLooksEnd() throws InterruptedException {
        Await.until("the timer sleeps until its earliest deadline", timer::sleepsUntilEarliestDeadline,
                Duration.ofSeconds(5));
    }
}
