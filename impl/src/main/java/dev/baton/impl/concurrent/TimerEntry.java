package dev.baton.impl.concurrent;

import java.util.concurrent.Future;

/** A task on a timer, let go of when cancelled: the timer's queue may keep the entry, never what the task holds. */
final class TimerEntry implements Runnable, Scheduler.Scheduled {

    private volatile Runnable task;
    private volatile Future<?> future;

    TimerEntry(Runnable task) {
        this.task = task;
    }

    void scheduled(Future<?> future) {
        this.future = future;
    }

    @Override
    public void run() {
        Runnable t = task;
        if (t != null) {
            task = null;
            t.run();
        }
    }

    @Override
    public void cancel() {
        task = null;
        Future<?> f = future;
        if (f != null) {
            f.cancel(false);
        }
    }
}
