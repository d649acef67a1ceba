package dev.baton.impl.servlet;

import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.http.ReadBurst;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.baton.impl.servlet.AsyncOutput.State.COMPLETED;
import static dev.baton.impl.servlet.AsyncOutput.State.FIRST_EVENT;
import static dev.baton.impl.servlet.AsyncOutput.State.GONE;
import static dev.baton.impl.servlet.AsyncOutput.State.HOLDING;
import static dev.baton.impl.servlet.AsyncOutput.State.IDLE;
import static dev.baton.impl.servlet.AsyncOutput.State.NEW;
import static dev.baton.impl.servlet.AsyncOutput.State.WAITING_FOR_CLIENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How {@link AsyncOutput} turns a stream's events into network writes, seen through a container's output stream
 * that logs each write, flush and completion (the container itself is exercised by the system tests).
 */
class AsyncOutputTest {

    private static final Duration LAST_RESORT = Duration.ofSeconds(60);

    /** What reached the container, in order: "w:<bytes>", "flush", "complete", "status:<code>". */
    private final List<String> log = new ArrayList<>();
    private final Output out = new Output();
    private final VirtualTime time = new VirtualTime();
    /** Never quiet, unless a test says: one output is open and none counts as quiet. */
    private OpenResponses openResponses = new OpenResponses(0);
    private final AsyncOutput output;
    private boolean committed;
    /** What the output set as the container's async timeout. */
    private Long containerTimeout;

    AsyncOutputTest() throws IOException {
        time.hold(); // time moves only when a test says
        output = newOutput();
    }

    private AsyncOutput newOutput() throws IOException {
        return new AsyncOutput(async(), LAST_RESORT, time, () -> Responses.timedOut(LAST_RESORT, "req_test"),
                openResponses);
    }

    private final class Output extends ServletOutputStream {
        boolean ready = true;
        /** A write leaves the container not ready: the client's socket is full. */
        boolean fillsUp;
        /** A write fails: the connection broke. */
        boolean broken;
        WriteListener listener;

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            this.listener = listener;
        }

        @Override
        public void write(int b) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (broken) {
                throw new IOException("connection reset");
            }
            log.add("w:" + new String(b, off, len, StandardCharsets.UTF_8));
            ready = !fillsUp;
        }

        @Override
        public void flush() {
            if (!ready) {
                throw new IllegalStateException("not ready");
            }
            log.add("flush");
        }
    }

    private AsyncContext async() {
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getOutputStream" -> out;
                    case "isCommitted" -> committed;
                    case "setStatus" -> log.add("status:" + args[0]);
                    case "setContentType", "setCharacterEncoding", "setContentLength", "setHeader" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (AsyncContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {AsyncContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getResponse" -> response;
                    case "addListener" -> null;
                    case "setTimeout" -> containerTimeout = (Long) args[0];
                    case "complete" -> log.add("complete");
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theContainersTimeoutIsOffAndBatonsLastResortAnswers504WhenNothingWasSent() {
        assertEquals(0L, containerTimeout);
        output.start(() -> { }, () -> { });

        time.advance(LAST_RESORT);

        assertEquals("status:504", log.get(0), log::toString);
        assertTrue(log.get(1).startsWith("w:{\"error\":") && log.get(1).contains("\"code\":\"timeout\""), log::toString);
        assertEquals("complete", log.get(log.size() - 1));
    }

    @Test
    void theLastResortEndsAStreamThatWasAnsweringWithoutAnotherAnswer() {
        List<String> cancelled = new ArrayList<>();
        output.start(() -> { }, () -> cancelled.add("upstream"));
        output.send(bytes("e1"));
        committed = true;

        time.advance(LAST_RESORT);

        assertEquals(List.of("w:e1", "flush", "flush", "complete"), log);
        assertEquals(List.of("upstream"), cancelled);
    }

    @Test
    void anAnswerThatEndsInTimeStopsTheLastResort() {
        output.start(() -> { }, () -> { });
        output.finish(bytes("{\"answer\":1}"));

        assertTrue(time.idle(), "the last resort's timer is cancelled");
        log.clear();
        time.advance(LAST_RESORT.multipliedBy(2));
        assertEquals(List.of(), log);
    }

    @Test
    void eventsThatArriveInOneProviderReadLeaveInOneWriteAndOneFlushTheFirstEventIncluded() {
        output.start(() -> { }, () -> { });
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            for (int i = 1; i <= 5; i++) {
                output.send(bytes("e" + i));
            }
            assertEquals(List.of(), log, "nothing leaves before the read ends");
        }
        // The response's first flush is made twice: Open Liberty may hold back what the first sends.
        assertEquals(List.of("w:e1e2e3e4e5", "flush", "flush"), log);
    }

    @Test
    void outsideAProviderReadEachEventLeavesAtOnce() {
        output.start(() -> { }, () -> { });
        output.send(bytes("e1"));
        output.send(bytes("e2"));
        output.send(bytes("e3"));
        assertEquals(List.of("w:e1", "flush", "flush", "w:e2", "flush", "w:e3", "flush"), log);
    }

    @Test
    void eventsTheStreamHasAtHandWhenAskedLeaveTogether() {
        List<String> held = new ArrayList<>(List.of("e2", "e3"));
        output.start(() -> {
            if (!held.isEmpty()) {
                output.send(bytes(held.remove(0)));
            }
        }, () -> { });
        output.send(bytes("e1"));
        assertEquals(List.of("w:e1e2e3", "flush", "flush"), log);
    }

    @Test
    void theEndLeavesWithTheCompletionAndNothingIsFlushedAfterIt() {
        output.start(() -> { }, () -> { });
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            output.send(bytes("e1"));
            output.send(bytes("e2"));
            output.finish(bytes("[DONE]"));
        }
        assertEquals(List.of("w:e1e2[DONE]", "complete"), log);
    }

    @Test
    void aWholeAnswerIsOneWriteThenTheCompletion() {
        output.start(() -> { }, () -> { });
        output.finish(bytes("{\"answer\":1}"));
        assertEquals(List.of("w:{\"answer\":1}", "complete"), log);
    }

    @Test
    void aWholeAnswerStartsTheOutputAndTheContainersFirstCallbackWritesIt() {
        output.answer(bytes("{\"answer\":1}"));
        assertEquals(List.of(), log, "written from the container's callback, not from the caller's thread");
        assertSame(output, out.listener);
        assertEquals(FIRST_EVENT, output.state());

        output.onWritePossible();
        assertEquals(List.of("w:{\"answer\":1}", "complete"), log);
        assertEquals(COMPLETED, output.state());
    }

    @Test
    void whatRunsWhenTheClientGoesIsSetWithoutStartingTheOutput() {
        List<String> cancelled = new ArrayList<>();
        output.onGone(() -> cancelled.add("upstream"));
        assertEquals(NEW, output.state());
        assertNull(out.listener);

        output.onError(new IOException("connection reset"));
        assertEquals(List.of("upstream"), cancelled);
        assertEquals(GONE, output.state());

        output.onGone(() -> cancelled.add("late")); // the client went before it was set: at once
        assertEquals(List.of("upstream", "late"), cancelled);
    }

    @Test
    void aStreamStartedAfterTheClientWentIsCancelledAtOnce() {
        output.onError(new IOException("connection reset")); // gone while the provider was being called
        List<String> cancelled = new ArrayList<>();
        output.start(() -> { }, () -> cancelled.add("upstream"));
        assertEquals(List.of("upstream"), cancelled, "not left waiting for demand that will not come");
        assertNull(out.listener);
    }

    @Test
    void anAnswerFinishedBeforeTheOutputStartedWaitsForTheWriteListener() {
        output.finish(bytes("{\"error\":1}")); // a stream refused while it was being subscribed to (a budget's 402)
        assertEquals(List.of(), log, "nothing written before the output is in non-blocking mode (Undertow refuses it)");

        output.start(() -> { }, () -> { });
        assertSame(output, out.listener);
        output.onWritePossible(); // the container's first call
        assertEquals(List.of("w:{\"error\":1}", "complete"), log);
    }

    @Test
    void whatTheClientCannotTakeYetWaitsForTheContainerAndLeavesWithTheRest() {
        output.start(() -> { }, () -> { });
        output.send(bytes("e1"));
        out.ready = false;
        output.send(bytes("e2"));
        output.send(bytes("e3"));
        assertEquals(List.of("w:e1", "flush", "flush"), log);
        out.ready = true;
        output.onWritePossible();
        assertEquals(List.of("w:e1", "flush", "flush", "w:e2e3", "flush"), log);
    }

    @Test
    void aReadThatEndsWhileTheClientIsBusyLeavesTheFlushToTheContainersCallback() {
        output.start(() -> { }, () -> { });
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            output.send(bytes("e1"));
            output.send(bytes("e2"));
            out.ready = false; // a write still pending: flushing now would be refused
            output.send(bytes("e3"));
        }
        assertEquals(List.of(), log);
        assertEquals(WAITING_FOR_CLIENT, output.state());
        out.ready = true;
        output.onWritePossible();
        assertEquals(List.of("w:e1e2e3", "flush", "flush"), log);
    }

    @Test
    void theResponsesFirstFlushIsRepeatedWhenItIsTheOnlyOneOfItsRead() {
        // Open Liberty may hold back what a response's first flush sends until the next flush.
        output.start(() -> { }, () -> { });
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            output.send(bytes("e1"));
        }
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            output.send(bytes("e2"));
        }
        assertEquals(List.of("w:e1", "flush", "flush", "w:e2", "flush"), log);
    }

    @Test
    void aLongBurstIsWrittenInPiecesOfTheStageLimit() {
        String event = "x".repeat(1000);
        output.start(() -> { }, () -> { });
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            for (int i = 0; i < 20; i++) {
                output.send(bytes(event));
            }
        }
        List<Integer> written = log.stream().filter(e -> e.startsWith("w:")).map(e -> e.length() - 2).toList();
        assertEquals(20 * 1000, written.stream().mapToInt(Integer::intValue).sum());
        for (int size : written.subList(0, written.size() - 1)) {
            assertEquals(AsyncOutput.STAGE_LIMIT + 1000 - AsyncOutput.STAGE_LIMIT % 1000, size);
        }
        assertEquals("flush", log.get(log.size() - 1));
    }

    @Test
    void aSlowClientStopsTheStreamWithAtMostTheStageLimitWaiting() {
        int[] given = {0};
        boolean[] more = {true};
        output.start(() -> {
            if (more[0]) {
                if (++given[0] == 30) {
                    out.ready = false; // the client stops taking
                }
                output.send(bytes("y".repeat(1000)));
            }
        }, () -> { });
        output.send(bytes("first"));
        int waiting = given[0] * 1000 - (writtenBytes() - "first".length());
        assertTrue(given[0] >= 30 && waiting > 0 && waiting < AsyncOutput.STAGE_LIMIT + 1000,
                given[0] + " events given, " + waiting + " bytes waiting");

        more[0] = false;
        out.ready = true;
        output.onWritePossible();
        assertEquals(given[0] * 1000 + "first".length(), writtenBytes());
        assertEquals("flush", log.get(log.size() - 1));
    }

    private int writtenBytes() {
        return log.stream().filter(e -> e.startsWith("w:")).mapToInt(e -> e.length() - 2).sum();
    }

    /** An output that counts as quiet while it is the only one open (one core's worth). */
    private AsyncOutput quietOutput() throws IOException {
        openResponses = new OpenResponses(1);
        return newOutput();
    }

    private static void answer(AsyncOutput output, String body) {
        output.start(() -> { }, () -> { });
        output.finish(bytes(body));
    }

    @Test
    void onAQuietServerAWholeAnswerLeavesBeforeTheCompletion() throws IOException {
        answer(quietOutput(), "{\"answer\":1}");
        // Flushed twice: Open Liberty at times sends nothing at a response's first flush.
        assertEquals(List.of("w:{\"answer\":1}", "flush", "flush", "complete"), log);
    }

    @Test
    void onAQuietServerAStreamsLastEventsLeaveBeforeTheCompletion() throws IOException {
        AsyncOutput quiet = quietOutput();
        quiet.start(() -> { }, () -> { });
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            quiet.send(bytes("e1"));
            quiet.send(bytes("e2"));
            quiet.finish(bytes("[DONE]"));
        }
        assertEquals(List.of("w:e1e2[DONE]", "flush", "flush", "complete"), log);
    }

    @Test
    void onABusyServerTheAnswerLeavesWithTheCompletionAndEndedResponsesNoLongerCount() throws IOException {
        AsyncOutput first = quietOutput();
        AsyncOutput second = newOutput(); // two open: no longer quiet
        answer(first, "a");
        assertEquals(List.of("w:a", "complete"), log);

        log.clear();
        answer(second, "b"); // the first has ended: alone again
        assertEquals(List.of("w:b", "flush", "flush", "complete"), log);

        newOutput().onError(new IOException("client went away"));
        AsyncOutput last = newOutput();
        log.clear();
        answer(last, "c"); // the one that failed no longer counts
        assertEquals(List.of("w:c", "flush", "flush", "complete"), log);
    }

    @Test
    void onAQuietServerAnAnswerStillBeingWrittenIsLeftToTheCompletion() throws IOException {
        AsyncOutput quiet = quietOutput();
        List<String> gone = new ArrayList<>();
        quiet.start(() -> { }, () -> gone.add("gone"));
        out.fillsUp = true;
        quiet.finish(bytes("{\"answer\":1}"));
        assertEquals(List.of("w:{\"answer\":1}", "complete"), log);
        assertEquals(List.of(), gone, "a flush while not ready is refused, and the answer ended as a failed write");
    }

    // One test per transition of AsyncOutput.State, each checking where the output rests.

    /** Counts the stream's asks for one more event. */
    private final List<String> asks = new ArrayList<>();

    private void startCountingAsks(List<String> gone) {
        output.start(() -> asks.add("ask"), () -> gone.add("gone"));
    }

    @Test
    void startSwitchesToNonBlockingAndTheContainersFirstCallbackAsksForTheFirstEventOnce() {
        assertEquals(NEW, output.state());
        startCountingAsks(new ArrayList<>());
        assertSame(output, out.listener);
        assertEquals(FIRST_EVENT, output.state());
        assertEquals(List.of(), asks, "the stream is asked from the container's callback, not from start()");

        output.onWritePossible();
        output.onWritePossible(); // the event asked for has not come: asking again would let two in
        assertEquals(List.of("ask"), asks);
        assertEquals(List.of(), log, "a flush of nothing would commit the status line before the answer is known");
        assertEquals(FIRST_EVENT, output.state());
    }

    @Test
    void eventsSentBeforeStartWaitForIt() {
        output.send(bytes("e1"));
        assertEquals(List.of(), log);
        assertEquals(NEW, output.state());

        startCountingAsks(new ArrayList<>());
        output.onWritePossible();
        assertEquals(List.of("w:e1", "flush", "flush"), log);
        assertEquals(IDLE, output.state());
    }

    @Test
    void anAnswerFinishedBeforeStartThatCannotBeWrittenYetWaitsForStart() {
        out.ready = false;
        output.finish(bytes("{\"error\":1}"));
        assertEquals(List.of(), log);
        assertEquals(NEW, output.state());

        output.start(() -> { }, () -> { });
        assertSame(output, out.listener, "it is written in non-blocking mode, then");
        out.ready = true;
        output.onWritePossible();
        assertEquals(List.of("w:{\"error\":1}", "complete"), log);
        assertEquals(COMPLETED, output.state());
    }

    @Test
    void aFirstEventTheClientCannotTakeYetLeavesWhenItCan() {
        startCountingAsks(new ArrayList<>());
        output.onWritePossible();
        assertEquals(FIRST_EVENT, output.state());
        out.ready = false;
        output.send(bytes("e1"));
        assertEquals(List.of(), log);
        assertEquals(WAITING_FOR_CLIENT, output.state());

        out.ready = true;
        output.onWritePossible();
        assertEquals(List.of("w:e1", "flush", "flush"), log);
        assertEquals(IDLE, output.state());
    }

    @Test
    void insideAProviderReadTheOutputHoldsWhatCameUntilTheReadEnds() throws InterruptedException {
        startCountingAsks(new ArrayList<>());
        output.send(bytes("e1"));
        assertEquals(IDLE, output.state());
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            output.send(bytes("e2"));
            assertEquals(HOLDING, output.state());
            // The container's callback, on a thread of its own, does not cut the read's batch short.
            Thread container = new Thread(output::onWritePossible);
            container.start();
            container.join();
            assertEquals(HOLDING, output.state());
            output.send(bytes("e3"));
        }
        assertEquals(List.of("w:e1", "flush", "flush", "w:e2e3", "flush"), log);
        assertEquals(IDLE, output.state());
    }

    @Test
    void aClientThatCannotTakeMoreIsWaitedForWithoutAskingTheStreamTwice() {
        startCountingAsks(new ArrayList<>());
        output.send(bytes("e1"));
        assertEquals(List.of("ask"), asks);
        out.ready = false;
        output.send(bytes("e2"));
        assertEquals(WAITING_FOR_CLIENT, output.state());
        assertEquals(List.of("ask", "ask"), asks, "what is staged may grow while the client is slow");

        out.ready = true;
        output.onWritePossible();
        assertEquals(List.of("w:e1", "flush", "flush", "w:e2", "flush"), log);
        assertEquals(List.of("ask", "ask"), asks, "the second event asked for is still to come");
        assertEquals(IDLE, output.state());
    }

    @Test
    void aWriteThatFillsTheClientsSocketLeavesItsFlushForWhenTheClientCanTakeMore() {
        List<String> gone = new ArrayList<>();
        startCountingAsks(gone);
        out.fillsUp = true;
        output.send(bytes("e1"));
        assertEquals(List.of("w:e1"), log, "a flush while a write is pending would be refused");
        assertEquals(WAITING_FOR_CLIENT, output.state());

        out.fillsUp = false;
        out.ready = true;
        output.onWritePossible();
        assertEquals(List.of("w:e1", "flush", "flush"), log);
        assertEquals(List.of(), gone);
        assertEquals(IDLE, output.state());
    }

    @Test
    void aStreamThatEndsWhenAskedIsCompletedByTheSameWrite() {
        output.start(() -> output.finish(bytes("[DONE]")), () -> { });
        output.send(bytes("e1"));
        assertEquals(List.of("w:e1[DONE]", "complete"), log);
        assertEquals(COMPLETED, output.state());
    }

    @Test
    void afterTheEndNothingIsWrittenAndTheContainersCompletionCancelsNothing() {
        List<String> gone = new ArrayList<>();
        startCountingAsks(gone);
        output.finish(bytes("{\"answer\":1}"));
        output.send(bytes("late"));
        output.finish(bytes("late"));
        output.onComplete(null);
        assertEquals(List.of("w:{\"answer\":1}", "complete"), log);
        assertEquals(List.of(), gone, "the upstream already ended: nothing to cancel");
        assertEquals(COMPLETED, output.state());
    }

    @Test
    void aClientThatWentAwayCancelsTheStreamOnceAndEndsTheCycleAtOnce() {
        List<String> gone = new ArrayList<>();
        startCountingAsks(gone);
        output.send(bytes("e1"));
        log.clear();

        output.onError(new IOException("client went away"));
        output.onComplete(null);
        output.send(bytes("e2"));
        assertEquals(List.of("gone"), gone);
        assertEquals(List.of("complete"), log);
        assertTrue(time.idle(), "the last resort's timer is cancelled");
        assertEquals(GONE, output.state());
    }

    @Test
    void aWriteThatFailsEndsTheResponseAndCancelsTheStream() {
        List<String> gone = new ArrayList<>();
        startCountingAsks(gone);
        out.broken = true;
        output.send(bytes("e1"));
        assertEquals(List.of("gone"), gone);
        assertEquals(List.of("complete"), log);
        assertEquals(GONE, output.state());
    }

    @Test
    void aStreamThatThrowsWhenAskedEndsTheResponseInsteadOfLeavingItStuck() {
        List<String> gone = new ArrayList<>();
        output.start(() -> {
            throw new UnsupportedOperationException("a bug in the stream");
        }, () -> gone.add("gone"));
        assertThrows(UnsupportedOperationException.class, () -> output.send(bytes("e1")));
        assertEquals(List.of("gone"), gone);
        assertEquals(List.of("complete"), log, "the event staged when the stream threw is dropped with it");
        assertEquals(GONE, output.state());
    }
}
