package dev.baton.impl.servlet;

import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.concurrent.Scheduler;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Idempotency keys across the nodes of a cluster, behind each node's {@link IdempotencyCache}: the
 * node whose local claim made it the owner claims the key in the cluster store too
 * ({@code SET NX} with a TTL as long as a request can run). Another node's stored answer is
 * replayed; another node's request still running is waited for (polled every {@link #POLL}), and
 * run here if that node releases the key or dies (its claim expires). A key used with another body
 * is a conflict cluster-wide.
 *
 * <p>The one place a request waits for the store, and only a request with an {@code Idempotency-Key}:
 * when the store is unreachable or does not answer within its timeout, the request runs on this
 * node's cache alone. Thread-safe; never blocks a thread.
 */
final class SharedIdempotency {

    static final Duration POLL = Duration.ofMillis(20);
    private static final JsonProvider JSON = JsonProvider.provider();

    private final ClusterStore store;
    private final String node;
    private final Duration ttl;
    private final Duration running;
    private final Scheduler scheduler;

    /**
     * How long the cluster keeps a key.
     *
     * @param answered how long a stored answer is replayed
     * @param running  how long a claim lasts while its request runs: longer than any request may take
     */
    record Lifetimes(Duration answered, Duration running) {
    }

    /** @param scheduler runs the polls for another node's answer */
    SharedIdempotency(ClusterStore store, String node, Lifetimes lifetimes, Scheduler scheduler) {
        this.store = store;
        this.node = node;
        this.ttl = lifetimes.answered();
        this.running = lifetimes.running();
        this.scheduler = scheduler;
    }

    /** What this node is to do with a request whose key it owns locally. */
    sealed interface Outcome permits Run, Replay, Conflict {
    }

    /** Run it; {@code claimed} says whether the cluster holds the key for this node (then {@link #settle}). */
    record Run(boolean claimed) implements Outcome {
    }

    /** Another node answered it: give this answer. */
    record Replay(Answer answer) implements Outcome {
    }

    /** Another node ran this key with a different body. */
    record Conflict() implements Outcome {
    }

    CompletableFuture<Outcome> claim(String caller, String key, byte[] bodyHash) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        String id = id(caller, key);
        String hash = HexFormat.of().formatHex(bodyHash);
        claim(id, hash, System.nanoTime() + running.toNanos(), outcome);
        return outcome;
    }

    private void claim(String id, String hash, long giveUpAt, CompletableFuture<Outcome> outcome) {
        if (!store.connected()) {
            outcome.complete(new Run(false));
            return;
        }
        String mine = JSON.createObjectBuilder().add("state", "running").add("hash", hash).add("node", node).build()
                .toString();
        store.setIfAbsent(id, mine, running).whenComplete((existing, error) -> {
            if (error != null) {
                outcome.complete(new Run(false)); // the store is down or slow: this node alone decides
            } else if (existing == null) {
                outcome.complete(new Run(true));
            } else {
                decide(id, hash, existing, giveUpAt, outcome);
            }
        });
    }

    /** Another node holds the key: replay its answer, or wait for it while it runs. */
    private void decide(String id, String hash, String existing, long giveUpAt, CompletableFuture<Outcome> outcome) {
        JsonObject held;
        try {
            held = JSON.createReader(new StringReader(existing)).readObject();
        } catch (RuntimeException unreadable) {
            outcome.complete(new Run(false));
            return;
        }
        if (!hash.equals(held.getString("hash", ""))) {
            outcome.complete(new Conflict());
        } else if ("done".equals(held.getString("state", ""))) {
            outcome.complete(new Replay(answer(held)));
        } else if (System.nanoTime() - giveUpAt > 0) {
            outcome.complete(new Run(false)); // its node should have answered by now
        } else {
            scheduler.schedule(POLL, () -> store.get(id).whenComplete((now, error) -> {
                if (error != null) {
                    outcome.complete(new Run(false));
                } else if (now == null) {
                    claim(id, hash, giveUpAt, outcome); // released (its answer was not storable): run it here
                } else {
                    decide(id, hash, now, giveUpAt, outcome);
                }
            }));
        }
    }

    /**
     * The owner's answer: kept for {@code ttl} when storable, else the key is released for a retry to run again.
     * Nobody waits for the store: the returned stage, done when the store has it, is for tests.
     */
    CompletableFuture<Void> settle(String caller, String key, byte[] bodyHash, Answer answer) {
        String id = id(caller, key);
        if (!answer.storable()) {
            return store.delete(id);
        }
        JsonObjectBuilder headers = JSON.createObjectBuilder();
        answer.headers().forEach(headers::add);
        String done = JSON.createObjectBuilder()
                .add("state", "done")
                .add("hash", HexFormat.of().formatHex(bodyHash))
                .add("node", node)
                .add("status", answer.status())
                .add("headers", headers)
                .add("body", Base64.getEncoder().encodeToString(answer.body()))
                .build().toString();
        return store.put(id, done, ttl);
    }

    private static Answer answer(JsonObject held) {
        Map<String, String> headers = new LinkedHashMap<>();
        held.getJsonObject("headers").forEach((name, value) -> headers.put(name, ((jakarta.json.JsonString) value)
                .getString()));
        return new Answer(held.getInt("status"), headers, Base64.getDecoder().decode(held.getString("body")));
    }

    /** The key's name in the store: a hash, so neither the caller's identity nor its key is stored in clear. */
    private static String id(String caller, String key) {
        return "idem:" + HexFormat.of().formatHex(GatewayKeys.sha256(caller + '\n' + key));
    }
}
