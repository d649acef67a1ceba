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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Non-blocking output for one async response (a JSON answer or an event stream): bytes are written only while the
 * container says the client can take them ({@link ServletOutputStream#isReady()}), and the rest from
 * {@link #onWritePossible()}. No thread waits on a slow client.
 *
 * <p>{@code whenDrained} asks the stream for its next event, once everything before it is taken: back-pressure from
 * the client's socket reaches the provider's. {@code whenGone} runs once when the client disconnects, a write fails
 * or the container ends the async cycle, which is where the upstream exchange is cancelled.
 *
 * <p>Writes cost the container more than bytes do, so events are batched: what the stream has at hand, or what
 * arrived in one network read of the provider's answer ({@link ReadBurst}), leaves in one write and one flush when
 * the read ends. The first event too: the rest of its read is parsed in microseconds, and a write and flush of its own
 * cost the server more than that.
 *
 * <p>The states, every change made by {@link #moveTo}:
 * <pre>
 *   NEW ──start(), answer()──▶ FIRST_EVENT
 *                                  │ send(), finish(), onWritePossible(), the end of a provider's read
 *                                  ▼
 *                               WRITING ──▶ FIRST_EVENT | IDLE | HOLDING | WAITING_FOR_CLIENT   (then back to WRITING)
 *                                  └──▶ COMPLETED   the end was written
 *
 *   any state but COMPLETED ──▶ GONE   client gone, write failed, cycle ended by the container, last resort
 * </pre>
 *
 * <p>The last resort is Baton's timer, not the container's async timeout, which is switched off: Open Liberty keeps
 * each cancelled async timeout queued until it is due or purged, which holds the request's objects that long and runs
 * on whichever thread completes a response. When it fires, the client gets the {@code timeoutAnswer} if nothing was
 * sent yet (built only then: nearly every request ends long before), and the cycle ends either way.
 *
 * <p>Thread-safe: everything but the container's {@code onComplete} runs under the instance lock.
 */
final class AsyncOutput implements WriteListener, AsyncListener {

    /** Staged events are written once they reach this many bytes, so a long burst neither waits nor piles up. */
    static final int STAGE_LIMIT = 8192;

    /** Queued by {@link #finish()} behind the last event: the response completes once everything before it is written. */
    private static final byte[] END = new byte[0];

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AsyncOutput.class, "state", State.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    enum State {
        /**
         * Not started: the container's stream is still blocking, and what is sent or finished is only queued until
         * {@link #start} or {@link #answer} switches it to non-blocking mode.
         */
        NEW,
        /** No event taken yet: nothing is flushed, which would commit the status line before the answer is known. */
        FIRST_EVENT,
        /** Everything taken was written and flushed; the stream has been asked for its next event. */
        IDLE,
        /**
         * What arrived during the provider's current network read is staged (or written, not flushed) until the read
         * ends, to leave in one write and one flush. The stream has been asked for its next event.
         */
        HOLDING,
        /**
         * The container cannot take more. Entered only right after {@code isReady()} answered false, which obliges
         * the container to call {@link #onWritePossible()}: that resumes.
         */
        WAITING_FOR_CLIENT,
        /**
         * The write loop runs, on the thread holding the lock. What the stream sends from inside it (answering an ask
         * at once) is only queued: the loop takes it.
         */
        WRITING,
        /** The end was written and the response completed. */
        COMPLETED,
        /** Ended early: the client went away, a write failed, the container ended the cycle or the last resort fired. */
        GONE;

        boolean ended() {
            return this == COMPLETED || this == GONE;
        }

        /** The transitions of the diagram above. */
        boolean canMoveTo(State next) {
            return switch (this) {
                case NEW -> next == FIRST_EVENT || next == GONE;
                case FIRST_EVENT, IDLE, HOLDING, WAITING_FOR_CLIENT -> next == WRITING || next == GONE;
                case WRITING -> next != WRITING;
                case COMPLETED, GONE -> false;
            };
        }
    }

    private final AsyncContext async;
    private final OpenResponses openResponses;
    private final ServletOutputStream out;
    private final Supplier<Answer> timeoutAnswer;
    /** Events not yet taken, then possibly {@link #END}; nothing is queued after it. */
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private final Pending pending = new Pending();
    /**
     * Written under the lock, with a release store: read without the lock only by {@link #gone()}, which needs to see
     * an end that happened before it, not the moves in between (a volatile store, a fence, twice an event, did).
     */
    private State state = State.NEW;
    /**
     * The stream has been asked for an event that has not come yet. It is asked for one at a time: asking again
     * before it comes would let two in.
     */
    private boolean demanded;
    private Runnable whenDrained = () -> { };
    private Runnable whenGone = () -> { };
    /** Set at the end of construction; a timer due at once could fire before. */
    private volatile Scheduler.Scheduled lastResort;

    /**
     * @param lastResort    how long the response may take in all, on {@code timer}
     * @param openResponses the application's responses not yet ended, this one counted among them until it ends
     */
    AsyncOutput(AsyncContext async, Duration lastResort, Scheduler timer, Supplier<Answer> timeoutAnswer,
                OpenResponses openResponses) throws IOException {
        this.async = async;
        this.openResponses = openResponses;
        this.timeoutAnswer = timeoutAnswer;
        this.out = async.getResponse().getOutputStream();
        async.setTimeout(0);
        async.addListener(this);
        openResponses.opened(); // before the timer: ending the response counts it out
        this.lastResort = timer.schedule(lastResort, this::timedOut);
    }

    /**
     * Sets the callbacks and starts non-blocking mode (once; a later call only replaces the callbacks). When the
     * response ended already (the client went, the last resort answered), {@code gone} runs at once: the stream it
     * stands for is cancelled instead of waiting for demand that will not come.
     */
    void start(Runnable drained, Runnable gone) {
        synchronized (this) {
            whenDrained = drained;
            if (!state.ended()) {
                begin();
            }
        }
        onGone(gone); // a failure meanwhile ran the previous callback and ended the response: then this runs at once
    }

    /**
     * Sets what runs once when the client goes before the response ends, without starting the output (a whole answer
     * starts it with {@link #answer}); runs it at once when the response ended already.
     */
    void onGone(Runnable gone) {
        synchronized (this) {
            if (!state.ended()) {
                whenGone = gone;
                return;
            }
        }
        gone.run();
    }

    /**
     * Writes a whole answer and completes the response, starting the output only now: the container's first callback
     * writes it. On WildFly that callback runs on the connection's I/O thread, which is where Undertow takes the
     * response's buffer from its pool and gives it back; an answer written from the HTTP client's thread after an
     * early start took a new 16 KB direct buffer for nearly every response (performance.md).
     */
    synchronized void answer(byte[] body) {
        finish(body);
        if (!state.ended()) {
            begin();
        }
    }

    /** Non-blocking mode, once. */
    private void begin() {
        if (state == State.NEW) {
            moveTo(State.FIRST_EVENT); // before the listener: the container may call it at once
            out.setWriteListener(this);
        }
    }

    /** Queues an event; before {@link #start} it waits for it. */
    synchronized void send(byte[] bytes) {
        if (state.ended() || finishing()) {
            return;
        }
        queue.add(bytes);
        drain();
    }

    /** Queues {@code last} and completes the response once it is written: the end costs no flush of its own. */
    synchronized void finish(byte[] last) {
        if (state.ended() || finishing()) {
            return;
        }
        queue.add(last);
        finish();
    }

    /**
     * Completes the response once everything queued has been written. Before {@link #start} it only queues: a stream
     * refused while it is subscribed to (a budget's 402) ends before the output starts, and until the write listener
     * is set the output is not in non-blocking mode (Undertow refuses {@code isReady()} then, and the answer was
     * lost); the listener's first call writes it.
     */
    synchronized void finish() {
        if (state.ended()) {
            return;
        }
        if (!finishing()) {
            queue.add(END);
        }
        drain();
    }

    @Override
    public synchronized void onWritePossible() {
        drain();
    }

    /** The provider's read that held the last events has ended: they leave together. */
    private synchronized void endOfRead() {
        if (state == State.HOLDING) { // otherwise they left already, or wait for the client
            drain(false);
        }
    }

    /** Where the output rests; for tests. */
    State state() {
        return (State) STATE.getAcquire(this);
    }

    private boolean finishing() {
        return queue.peekLast() == END;
    }

    private void drain() {
        drain(state == State.HOLDING);
    }

    /** @param holding the end of the current provider's read will flush what is pending */
    private void drain(boolean holding) {
        if (state == State.WRITING || state == State.NEW || state.ended()) {
            return; // inside the loop, which takes what was queued; or not started: it waits for start() or answer()
        }
        State from = state;
        moveTo(State.WRITING);
        try {
            State next = write(from, holding);
            if (state == State.WRITING) {
                moveTo(next);
            }
        } catch (IOException | IllegalStateException e) {
            gone();
        } finally {
            if (state == State.WRITING) {
                gone(); // anything else thrown: end the response rather than leave it stuck
            }
        }
    }

    /**
     * The write loop: takes what is queued, asks the stream for more each time the queue is empty, and returns where
     * it rests once the stream has nothing more at hand or the client cannot take more.
     */
    private State write(State from, boolean holding) throws IOException {
        boolean taken = from != State.FIRST_EVENT; // an event, ever
        while (state == State.WRITING) {
            State stalled = taken ? State.WAITING_FOR_CLIENT : State.FIRST_EVENT;
            byte[] next = queue.peek();
            if (next != null && next != END) {
                queue.poll();
                demanded = false;
                taken = true;
                pending.stage(next);
            }
            if (next == END) {
                if (!pending.write(out)) {
                    return stalled;
                }
                // complete() sends what was written, on Open Liberty from another thread: on a quiet server the answer
                // leaves from here, a hand-off sooner (see OpenResponses). A write the container has not finished
                // (not ready) is left to complete().
                if (openResponses.quiet() && pending.hasUnflushed()) {
                    pending.flush(out);
                }
                moveTo(State.COMPLETED); // before complete(): the container's onComplete then needs no lock
                stopLastResort();
                async.complete();
                return State.COMPLETED;
            } else if (next != null) {
                if (pending.staged() >= STAGE_LIMIT && !pending.write(out)) {
                    return stalled;
                }
            } else if (!demanded) {
                if (pending.staged() == 0 && !out.isReady()) {
                    return stalled; // the client is slow: the stream waits with it
                }
                demanded = true;
                whenDrained.run();
            } else if (pending.isEmpty()) {
                return taken ? State.IDLE : State.FIRST_EVENT; // a flush of nothing would commit the status line early
            } else {
                // The stream has nothing more at hand: what was taken leaves now or, inside a provider's read that
                // may hold more events, when that read ends. The first event too: the rest of its read is parsed in
                // microseconds, less than a write and a flush of its own cost the server.
                if (holding || ReadBurst.defer(this::endOfRead)) {
                    return State.HOLDING;
                }
                return pending.write(out) && pending.flush(out) ? State.IDLE : State.WAITING_FOR_CLIENT;
            }
        }
        return state; // ended from inside the loop
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

    @Override
    public void onError(AsyncEvent event) {
        gone();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }

    private void timedOut() {
        Runnable cancel;
        synchronized (this) {
            cancel = takeWhenGone();
            // Queued before the upstream is cancelled: its own failure answer then finds the output finishing.
            if (!state.ended() && !finishing() && !async.getResponse().isCommitted()) {
                Answer answer = timeoutAnswer.get();
                answer.applyTo((HttpServletResponse) async.getResponse());
                queue.clear();
                pending.drop();
                queue.add(answer.body());
                start(() -> { }, () -> { });
                finish();
            }
        }
        cancel.run();
        gone(); // ends the cycle if the answer could not be written at once
    }

    private void gone() {
        // Read without the lock: after a normal completion the container's onComplete, often on another thread,
        // would otherwise wait for the completing thread to let go of it.
        if (((State) STATE.getAcquire(this)).ended()) {
            return;
        }
        Runnable callback;
        synchronized (this) {
            if (state.ended()) {
                return;
            }
            moveTo(State.GONE);
            queue.clear();
            pending.drop();
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

    /** Every change of state; the caller holds the lock. */
    private void moveTo(State next) {
        assert Thread.holdsLock(this) && state.canMoveTo(next) : state + " -> " + next;
        if (next.ended()) {
            openResponses.closed();
        }
        STATE.setRelease(this, next);
    }

    private void stopLastResort() {
        Scheduler.Scheduled timer = lastResort;
        if (timer != null) {
            timer.cancel();
        }
    }

    private Runnable takeWhenGone() {
        Runnable callback = whenGone;
        whenGone = () -> { };
        return callback;
    }

    /**
     * Bytes on their way to the client: staged (taken from the queue, not yet given to the container, so that a burst
     * goes to it in one write, each write having a cost of its own) and written but not flushed.
     */
    private static final class Pending {
        /** A lone item is the caller's own array, whole; let go of once written, so an idle stream holds none. */
        private byte[] staged;
        private int length;
        /** Written since the last flush; flushing nothing would commit the status line too early. */
        private boolean unflushed;
        /** Open Liberty at times holds back what a response's first flush sends until its next flush. */
        private boolean flushedOnce;

        /** A lone item is kept as it is; it fills its array, so a second one starts a copy of both. */
        void stage(byte[] bytes) {
            if (length == 0) {
                staged = bytes;
            } else {
                if (staged.length - length < bytes.length) {
                    staged = Arrays.copyOf(staged, Math.max(STAGE_LIMIT, 2 * (length + bytes.length)));
                }
                System.arraycopy(bytes, 0, staged, length, bytes.length);
            }
            length += bytes.length;
        }

        int staged() {
            return length;
        }

        boolean hasUnflushed() {
            return unflushed;
        }

        boolean isEmpty() {
            return length == 0 && !unflushed;
        }

        /** @return false when the container cannot take it now: {@code onWritePossible()} follows */
        boolean write(ServletOutputStream out) throws IOException {
            if (!out.isReady()) {
                return false;
            }
            if (length > 0) {
                out.write(staged, 0, length);
                unflushed = true;
                drop();
            }
            return true;
        }

        /**
         * @return false when the container cannot take it now (a flush while a write is still pending is refused):
         *         {@code onWritePossible()} follows
         */
        boolean flush(ServletOutputStream out) throws IOException {
            while (unflushed) {
                if (!out.isReady()) {
                    return false;
                }
                out.flush();
                unflushed = !flushedOnce; // the response's first flush is made twice
                flushedOnce = true;
            }
            return true;
        }

        void drop() {
            staged = null;
            length = 0;
        }
    }
}
