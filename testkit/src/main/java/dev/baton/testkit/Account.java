package dev.baton.testkit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * One simulated provider account: its script of behaviours, its default, its models and its request log.
 *
 * <p>Thread-safe; requests and test code may use an account concurrently.
 */
public final class Account {

    private final String name;
    private final Deque<Behavior> script = new ArrayDeque<>();
    private final List<RecordedRequest> log = new ArrayList<>();
    private Behavior fallback = Behavior.ok();
    private Behavior flap;
    private long flapEndsNanos;
    private Set<String> models;
    /** Bedrock requests must be SigV4-signed with this key when set: [access key id, secret access key]. */
    private String[] awsCredentials;

    Account(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** Queues behaviours that answer the next requests, one each, in order, before the default applies again. */
    public synchronized Account enqueue(Behavior... behaviors) {
        for (Behavior behavior : behaviors) {
            script.add(Objects.requireNonNull(behavior, "behavior"));
        }
        return this;
    }

    /** Sets the behaviour used when the queue is empty; initially {@link Behavior#ok()}. */
    public synchronized Account setDefault(Behavior behavior) {
        fallback = Objects.requireNonNull(behavior, "behavior");
        return this;
    }

    /** Answers every request with {@code failure} for {@code duration} from now, ahead of the untouched queue. */
    public synchronized Account failFor(Duration duration, Behavior failure) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative");
        }
        flap = Objects.requireNonNull(failure, "failure");
        flapEndsNanos = System.nanoTime() + duration.toNanos();
        return this;
    }

    /** Restricts the account to these models; a request for another model gets 404 {@code model_not_found}. */
    public synchronized Account serves(String... models) {
        this.models = Set.of(models);
        return this;
    }

    /**
     * Amazon Bedrock requests to this account must carry a SigV4 signature made with this access key (checked with
     * AWS's own signer): another key id is answered 403 {@code UnrecognizedClientException}, a signature that does
     * not match 403 {@code InvalidSignatureException}, none 403 {@code MissingAuthenticationTokenException}, as
     * Bedrock does. Until then (and after {@link #reset()}) any credential is accepted.
     */
    public synchronized Account awsCredentials(String accessKeyId, String secretAccessKey) {
        this.awsCredentials = new String[] {Objects.requireNonNull(accessKeyId, "accessKeyId"),
                Objects.requireNonNull(secretAccessKey, "secretAccessKey")};
        return this;
    }

    /** [access key id, secret access key] Bedrock requests must be signed with, or null. */
    synchronized String[] awsCredentials() {
        return awsCredentials;
    }

    /** A snapshot of the requests received so far, in arrival order. */
    public synchronized List<RecordedRequest> requests() {
        return List.copyOf(log);
    }

    public synchronized int requestCount() {
        return log.size();
    }

    /**
     * Waits until at least {@code count} requests have arrived, for at most {@code timeout}.
     *
     * @return whether they did
     */
    public synchronized boolean awaitRequests(int count, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (log.size() < count) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** The most recent request; throws {@link NoSuchElementException} if none arrived. */
    public synchronized RecordedRequest lastRequest() {
        if (log.isEmpty()) {
            throw new NoSuchElementException("no request has reached account " + name);
        }
        return log.get(log.size() - 1);
    }

    /** Back to the initial state: empty queue and log, default {@code ok()}, no flap, any model served. */
    public synchronized Account reset() {
        script.clear();
        log.clear();
        fallback = Behavior.ok();
        flap = null;
        models = null;
        awsCredentials = null;
        return this;
    }

    /** The served models, or null when the account serves any model. */
    synchronized Set<String> models() {
        return models;
    }

    /**
     * Logs a request and picks its behaviour in one step, so log order and script order agree under concurrency.
     * A null model logs the request without consuming any behaviour.
     */
    synchronized Behavior admit(RecordedRequest request, String model) {
        log.add(request);
        notifyAll();
        if (model == null) {
            return null;
        }
        if (models != null && !models.contains(model)) {
            return Behavior.modelNotFound();
        }
        if (flap != null) {
            if (System.nanoTime() - flapEndsNanos < 0) {
                return flap;
            }
            flap = null;
        }
        Behavior next = script.poll();
        return next != null ? next : fallback;
    }

    @Override
    public String toString() {
        return "Account[" + name + "]";
    }
}
