package dev.baton.impl.servlet;

import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.http.ReadBurst;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Non-blocking output for one async response: bytes are queued and written only while the
 * container says the connection can take them ({@link ServletOutputStream#isReady()}); the rest is
 * written from {@link #onWritePossible()}. No thread waits on a slow client.
 *
 * <p>{@code whenDrained} runs each time the queue empties, which is where a stream asks its
 * upstream for the next chunk: back-pressure from the client's socket reaches the provider's.
 * {@code whenGone} runs once when the client disconnects, the write fails or the container ends
 * the async cycle, which is where the upstream exchange is cancelled.
 *
 * <p>When the last resort is reached, the client gets the {@code timeoutAnswer} if nothing was sent yet
 * (built only then: nearly every request ends long before),
 * and the cycle ends either way: no request is left hanging. The last resort is Baton's timer, not the container's
 * async timeout, which is switched off: Open Liberty keeps each cancelled async timeout queued until it is due or a
 * purge every 30 s, which holds the request's objects that long and runs on whichever thread completes a response.
 *
 * <p>Thread-safe: writes are serialised by the instance lock.
 */
final class AsyncOutput implements WriteListener, AsyncListener {

    /** Staged events are written once they reach this many bytes, so a long burst neither waits nor piles up. */
    static final int STAGE_LIMIT = 8192;

    /** The responses of this application not yet ended. */
    private static final OpenResponses OPEN_RESPONSES =
            new OpenResponses(Runtime.getRuntime().availableProcessors());

    private final AsyncContext async;
    private final OpenResponses openResponses;
    private final ServletOutputStream out;
    private final Queue<byte[]> queue = new ArrayDeque<>();
    private final Supplier<Answer> timeoutAnswer;
    /** Set at the end of construction; a timer due at once could fire before. */
    private volatile Scheduler.Scheduled lastResort;
    private Runnable whenDrained = () -> { };
    private Runnable whenGone = () -> { };
    private boolean started;
    private boolean finishing;
    private boolean closed;
    /**
     * Set just before the response is completed normally. The container's {@code onComplete} then returns without the
     * lock, which the completing thread may still hold: waiting for it cost a contended monitor and a wake-up a request.
     */
    private volatile boolean completed;
    /** Written since the last flush; flushing nothing would commit the status line too early. */
    private boolean unflushed;
    /** {@code whenDrained} ran since the last write: whatever it had at hand is queued. */
    private boolean asked;
    /** The first write was flushed on its own (a stream's first event). */
    private boolean committed;
    /** Flushes so far, counted up to two (see {@link #flush()}). */
    private int flushes;
    /** A flush waits for the end of the provider's read on this thread ({@link ReadBurst}). */
    private boolean flushDeferred;
    /** Inside {@link #drain()}, on this thread (the lock is reentrant). */
    private boolean draining;
    /**
     * Events taken from the queue but not yet written: a burst goes to the container in one write, since each write
     * into its output stream has a cost of its own. Let go of once written, so an idle stream holds none.
     */
    private byte[] staged;
    private int stagedLength;
    /** {@link #staged} is this output's own copy, not a caller's array. */
    private boolean stagedOwned;

    /** @param lastResort how long the response may take in all, on {@code timer} */
    AsyncOutput(AsyncContext async, Duration lastResort, Scheduler timer, Supplier<Answer> timeoutAnswer)
            throws IOException {
        this(async, lastResort, timer, timeoutAnswer, OPEN_RESPONSES);
    }

    AsyncOutput(AsyncContext async, Duration lastResort, Scheduler timer, Supplier<Answer> timeoutAnswer,
                OpenResponses openResponses) throws IOException {
        this.async = async;
        this.openResponses = openResponses;
        this.timeoutAnswer = timeoutAnswer;
        this.out = async.getResponse().getOutputStream();
        async.setTimeout(0);
        async.addListener(this);
        this.lastResort = timer.schedule(lastResort, this::timedOut);
        openResponses.count.incrementAndGet();
    }

    /**
     * Sets the callbacks and starts non-blocking mode (once; a later call only replaces the callbacks). An answer
     * finished before this was written in blocking mode and needs neither.
     */
    synchronized void start(Runnable drained, Runnable gone) {
        if (closed) {
            return;
        }
        this.whenDrained = drained;
        this.whenGone = gone;
        if (!started) {
            started = true;
            out.setWriteListener(this);
        }
    }

    synchronized void send(byte[] bytes) {
        if (closed || finishing) {
            return;
        }
        queue.add(bytes);
        drain();
    }

    /** Queues {@code last} and completes the response once it is written: the end costs no flush of its own. */
    synchronized void finish(byte[] last) {
        if (closed || finishing) {
            return;
        }
        queue.add(last);
        finish();
    }

    /** Completes the response once everything queued has been written. */
    synchronized void finish() {
        if (closed) {
            return;
        }
        finishing = true;
        drain();
    }

    @Override
    public synchronized void onWritePossible() {
        drain();
    }

    /**
     * Takes what is queued, asking a stream for more each time the queue is empty. A stream's first event is written
     * and flushed alone, since the caller is waiting for it; after it, what the stream had at hand is written in one
     * go (or in {@link #STAGE_LIMIT} pieces) and flushed at the end of the provider's read this thread is in
     * ({@link ReadBurst}): a provider often sends several events in one packet, and they reach this output one by one.
     * A burst of events costs one network write, not one each. Nothing is written while the container is not ready;
     * {@link #onWritePossible()} resumes.
     */
    private void drain() {
        if (draining) {
            return; // a send from inside whenDrained: the loop below takes it
        }
        draining = true;
        try {
            while (!closed) {
                byte[] next = queue.poll();
                if (next != null) {
                    stage(next);
                    asked = false;
                    if (!committed && !finishing) {
                        // A stream's first event leaves at once: the caller's time to first token does not wait
                        // for the events the provider sent with it, nor, when the whole stream came in one read, for
                        // the completion (Liberty hands that to another thread: +450 µs to first byte, measured).
                        committed = true;
                        if (!writeStaged()) {
                            return;
                        }
                        flush();
                    } else if (stagedLength >= STAGE_LIMIT && !writeStaged()) {
                        return;
                    }
                } else if (finishing) {
                    if (!writeStaged()) {
                        return;
                    }
                    // complete() flushes, on another thread on Open Liberty. On a quiet server the answer leaves
                    // from here, a hand-off sooner; under load that write costs more CPU than it saves time, and a
                    // write still pending (not ready) is finished by complete() (docs/performance-history.md,
                    // "The tenth steps" and "The eleventh steps").
                    if (unflushed && openResponses.quiet() && out.isReady()) {
                        out.flush();
                        flushes++;
                        secondFlush(); // when that was the response's first flush, which Open Liberty may hold
                    }
                    close();
                    completed = true;
                    stopLastResort();
                    async.complete();
                    return;
                } else if (!asked) {
                    if (stagedLength == 0 && !out.isReady()) {
                        return; // the caller is slow: the stream waits with it
                    }
                    asked = true;
                    whenDrained.run();
                } else {
                    // Nothing more at hand: what was taken leaves now, or, inside a provider's read that may hold
                    // more events, once that read is handed on.
                    if (!flushDeferred) {
                        flushDeferred = (stagedLength > 0 || unflushed) && ReadBurst.defer(this::endOfBurst);
                        if (!flushDeferred && writeStaged()) {
                            flush();
                        }
                    }
                    return;
                }
            }
        } catch (IOException | IllegalStateException e) {
            gone();
        } finally {
            draining = false;
        }
    }

    /** The provider's read that held the last events was handed on: they leave together. */
    private synchronized void endOfBurst() {
        flushDeferred = false;
        try {
            // Not ready: a write is still pending, and onWritePossible() writes and flushes once it is done.
            if (!closed && writeStaged()) {
                flush();
                secondFlush();
            }
        } catch (IOException | IllegalStateException e) {
            gone();
        }
    }

    /** Adds {@code bytes} to what is staged: a lone item is kept as it is, a second one starts a copy of both. */
    private void stage(byte[] bytes) {
        if (stagedLength == 0) {
            staged = bytes;
            stagedOwned = false;
        } else {
            if (!stagedOwned || staged.length - stagedLength < bytes.length) {
                staged = Arrays.copyOf(staged, Math.max(STAGE_LIMIT, 2 * (stagedLength + bytes.length)));
                stagedOwned = true;
            }
            System.arraycopy(bytes, 0, staged, stagedLength, bytes.length);
        }
        stagedLength += bytes.length;
    }

    /**
     * Writes what was staged, when the container can take it.
     *
     * @return false when the container is not ready: {@link #onWritePossible()} comes back
     */
    private boolean writeStaged() throws IOException {
        if (!out.isReady()) {
            return false;
        }
        if (stagedLength > 0) {
            out.write(staged, 0, stagedLength);
            unflushed = true;
            staged = null;
            stagedLength = 0;
        }
        return true;
    }

    private void flush() throws IOException {
        if (unflushed) {
            unflushed = false;
            out.flush();
            if (flushes++ == 0 && !flushDeferred) {
                // Open Liberty at times holds back what a response's first flush should send until the next flush
                // (seen with a bare relay servlet too: a stream's first events waited for the provider's next read).
                // The end of this read flushes again if nothing else did; outside a read, now.
                flushDeferred = ReadBurst.defer(this::endOfBurst);
                if (!flushDeferred) {
                    secondFlush();
                }
            }
        }
    }

    /** The response's first flush was its only one: flush again, so that what it held back leaves. */
    private void secondFlush() throws IOException {
        if (flushes == 1 && !closed && out.isReady()) {
            flushes++;
            out.flush();
        }
    }

    @Override
    public void onError(Throwable t) {
        gone();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        gone();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        timedOut();
    }

    private void timedOut() {
        Runnable cancel;
        synchronized (this) {
            cancel = takeWhenGone();
            // Queued before the upstream is cancelled: its own failure answer then finds us finishing.
            if (!closed && !finishing && !async.getResponse().isCommitted()) {
                Answer answer = timeoutAnswer.get();
                answer.applyTo((HttpServletResponse) async.getResponse());
                dropPending();
                queue.add(answer.body());
                start(() -> { }, () -> { });
                finish();
            }
        }
        cancel.run();
        gone(); // ends the cycle if the answer could not be written at once
    }

    @Override
    public void onError(AsyncEvent event) {
        gone();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }

    private void gone() {
        if (completed) {
            return;
        }
        Runnable callback;
        synchronized (this) {
            if (completed) {
                return;
            }
            close();
            dropPending();
            callback = takeWhenGone();
        }
        stopLastResort();
        callback.run();
        // Ended at once, not left to the last resort, minutes away.
        try {
            async.complete();
        } catch (RuntimeException alreadyEnded) {
            // completed or dispatched by the container in the meantime
        }
    }

    private void close() {
        if (!closed) {
            closed = true;
            openResponses.count.decrementAndGet();
        }
    }

    private void stopLastResort() {
        Scheduler.Scheduled timer = lastResort;
        if (timer != null) {
            timer.cancel();
        }
    }

    /** Forgets what was queued or staged and not yet written. */
    private void dropPending() {
        queue.clear();
        staged = null;
        stagedLength = 0;
    }

    private Runnable takeWhenGone() {
        Runnable callback = whenGone;
        whenGone = () -> { };
        return callback;
    }

    /**
     * Counts the responses not yet ended, to tell a quiet server from a busy one: while no more are open than there are
     * cores, a core is free for the extra write that sends a finished answer before its completion.
     */
    static final class OpenResponses {
        private final AtomicInteger count = new AtomicInteger();
        private final int quietUpTo;

        OpenResponses(int quietUpTo) {
            this.quietUpTo = quietUpTo;
        }

        boolean quiet() {
            return count.get() <= quietUpTo;
        }
    }
}
