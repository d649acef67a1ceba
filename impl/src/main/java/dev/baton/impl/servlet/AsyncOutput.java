package dev.baton.impl.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Queue;
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
 * <p>When the async timeout fires, the client gets the {@code timeoutAnswer} if nothing was sent yet
 * (built only then: nearly every request ends long before),
 * and the cycle ends either way: no request is left hanging.
 *
 * <p>Thread-safe: writes are serialised by the instance lock.
 */
final class AsyncOutput implements WriteListener, AsyncListener {

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final Queue<byte[]> queue = new ArrayDeque<>();
    private final Supplier<Answer> timeoutAnswer;
    private Runnable whenDrained = () -> { };
    private Runnable whenGone = () -> { };
    private boolean started;
    private boolean finishing;
    private boolean closed;
    /** Written since the last flush; flushing nothing would commit the status line too early. */
    private boolean unflushed;

    AsyncOutput(AsyncContext async, Supplier<Answer> timeoutAnswer) throws IOException {
        this.async = async;
        this.timeoutAnswer = timeoutAnswer;
        this.out = async.getResponse().getOutputStream();
        async.addListener(this);
    }

    /** Sets the callbacks and starts non-blocking mode (once; a later call only replaces the callbacks). */
    synchronized void start(Runnable drained, Runnable gone) {
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

    private void drain() {
        try {
            while (!closed && out.isReady()) {
                byte[] next = queue.poll();
                if (next == null) {
                    if (finishing) {
                        closed = true;
                        async.complete();
                    } else {
                        if (unflushed) {
                            unflushed = false;
                            out.flush(); // each SSE event leaves at once
                        }
                        if (out.isReady()) {
                            whenDrained.run();
                        }
                    }
                    return;
                }
                out.write(next);
                unflushed = true;
            }
        } catch (IOException | IllegalStateException e) {
            gone();
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
        Runnable cancel;
        synchronized (this) {
            cancel = takeWhenGone();
            // Queued before the upstream is cancelled: its own failure answer then finds us finishing.
            if (!closed && !finishing && !async.getResponse().isCommitted()) {
                Answer answer = timeoutAnswer.get();
                answer.applyTo((HttpServletResponse) async.getResponse());
                queue.clear();
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
        Runnable callback;
        synchronized (this) {
            if (closed && finishing && queue.isEmpty()) {
                return; // completed normally
            }
            closed = true;
            queue.clear();
            callback = takeWhenGone();
        }
        callback.run();
        // Ended at once, not left to the async timeout, a last resort of minutes.
        try {
            async.complete();
        } catch (RuntimeException alreadyEnded) {
            // completed or dispatched by the container in the meantime
        }
    }

    private Runnable takeWhenGone() {
        Runnable callback = whenGone;
        whenGone = () -> { };
        return callback;
    }
}
