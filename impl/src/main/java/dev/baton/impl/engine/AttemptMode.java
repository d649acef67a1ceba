package dev.baton.impl.engine;

import dev.baton.Cost;
import dev.baton.exception.FailoverException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.spi.ProviderFailure;
import jakarta.json.JsonObject;

import java.time.Duration;

/**
 * How the loop's attempts run and how its answer reaches the caller: the one thing the engine's two
 * modes ({@link CompleteMode}, {@link StreamMode}) do differently. A mode reports each attempt's end
 * to {@link FailoverLoop#ended} exactly once, unless the caller went away first.
 */
interface AttemptMode {

    /** Runs {@code attempt} within {@code timeout}; its outcome goes to the loop. */
    void run(Attempt attempt, Duration timeout);

    /** Cancels the exchange in flight, if any: the caller went away. */
    void abort();

    /** Answers with what the last attempt served; {@code cost} is its estimated cost, or {@code null}. */
    void served(Attempt attempt, Cost cost);

    /** Answers with an error. */
    void failed(FailoverException error);

    /** Whether this mode can answer with the policy's degraded text instead of a final error. */
    boolean answersDegraded();

    /** Answers with the degraded text; only called when {@link #answersDegraded()}. */
    void degraded(String text, UpstreamFailedException cause);

    /** How an attempt ended, as its mode saw it. */
    sealed interface Outcome {

        /** Whether output had reached the caller: the commit point, which only a stream passes. */
        boolean committed();

        /** Milliseconds from admission to the first output, or {@code null} when none came. */
        Long firstTokenMillis();
    }

    /** The target answered; {@code usage} is its token usage, when it said. */
    record Served(boolean committed, Long firstTokenMillis, JsonObject usage) implements Outcome {
    }

    /**
     * The target failed, classified by its adapter. After the commit point, {@code interruption} is
     * the code the caller's stream ends with.
     */
    record Failed(ProviderFailure failure, boolean committed, Long firstTokenMillis, String interruption)
            implements Outcome {

        static Failed beforeCommit(ProviderFailure failure) {
            return new Failed(failure, false, null, null);
        }
    }
}
