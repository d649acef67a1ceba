package dev.baton.impl.servlet;

import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The answers of non-streaming requests that carried an {@code Idempotency-Key}, so that a repeat
 * (a client that timed out and sent the request again, say) gets the same answer without a second
 * provider call. Keys are scoped per caller: two callers may use the same key.
 *
 * <p>The first request with a key becomes its {@link Owner} and runs; a repeat while it runs
 * attaches to the same future ({@link Attached}) instead of waiting on a thread. Only a served 200
 * is kept, for {@code ttl} after it was stored; any other answer is given to the requests already
 * attached and then the key is released, so a later retry runs again. A key reused with another
 * body is a {@link Conflict}: replaying an answer to a different question would be wrong.
 *
 * <p>Bounded: at most {@code maxEntries} keys, the oldest evicted first (a running request that is
 * evicted still answers everyone attached to it; its answer is just not kept). Expired entries are
 * dropped as new keys arrive. Thread-safe: one short lock, never held while answers are delivered.
 */
final class IdempotencyCache {

    private final Duration ttl;
    private final int maxEntries;
    private final InstantSource clock;
    /** In claim order, so the first entry is the oldest. */
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    IdempotencyCache(Duration ttl, int maxEntries, InstantSource clock) {
        if (ttl.isNegative() || ttl.isZero() || maxEntries < 1) {
            throw new IllegalArgumentException("ttl must be positive and maxEntries at least 1");
        }
        this.ttl = ttl;
        this.maxEntries = maxEntries;
        this.clock = clock;
    }

    /** What a request with an idempotency key is to do. */
    sealed interface Claim permits Owner, Attached, Conflict {
    }

    /** The first request with this key: it runs, then must {@link #settle} exactly once. */
    final class Owner implements Claim {
        private final String id;
        private final Entry entry;

        private Owner(String id, Entry entry) {
            this.id = id;
            this.entry = entry;
        }

        /** Keeps {@code answer} when it is {@link Answer#storable()}, else releases the key; then answers every repeat attached. */
        void settle(Answer answer) {
            synchronized (IdempotencyCache.this) {
                if (entries.get(id) == entry) {
                    if (answer.storable()) {
                        entry.expiresAt = clock.instant().plus(ttl);
                    } else {
                        entries.remove(id);
                    }
                }
            }
            entry.answer.complete(answer);
        }
    }

    /** A repeat: answer with what this future gives, marked as a replay. */
    record Attached(CompletableFuture<Answer> answer) implements Claim {
    }

    /** The key was used with a different body. */
    record Conflict() implements Claim {
    }

    /**
     * @param caller   who is asking (the scope of its keys)
     * @param key      the {@code Idempotency-Key} value
     * @param bodyHash the SHA-256 of the request body
     */
    synchronized Claim claim(String caller, String key, byte[] bodyHash) {
        Instant now = clock.instant();
        dropExpired(now);
        String id = caller + '\n' + key;
        Entry entry = entries.get(id);
        if (entry != null && entry.expired(now)) {
            entries.remove(id);
            entry = null;
        }
        if (entry == null) {
            entry = new Entry(bodyHash.clone());
            entries.put(id, entry);
            while (entries.size() > maxEntries) {
                Iterator<Entry> oldest = entries.values().iterator();
                oldest.next();
                oldest.remove();
            }
            return new Owner(id, entry);
        }
        if (!MessageDigest.isEqual(entry.bodyHash, bodyHash)) {
            return new Conflict();
        }
        return new Attached(entry.answer.thenApply(Answer::replayed));
    }

    synchronized int size() {
        return entries.size();
    }

    /** Drops expired entries from the oldest on, up to the first one still alive or running. */
    private void dropExpired(Instant now) {
        Iterator<Entry> it = entries.values().iterator();
        while (it.hasNext()) {
            if (!it.next().expired(now)) {
                return;
            }
            it.remove();
        }
    }

    private static final class Entry {
        final byte[] bodyHash;
        final CompletableFuture<Answer> answer = new CompletableFuture<>();
        /** {@code null} while the owner runs. Guarded by the cache's lock. */
        Instant expiresAt;

        Entry(byte[] bodyHash) {
            this.bodyHash = bodyHash;
        }

        boolean expired(Instant now) {
            return expiresAt != null && !now.isBefore(expiresAt);
        }
    }
}
