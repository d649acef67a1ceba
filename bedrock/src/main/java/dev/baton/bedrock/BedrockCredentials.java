package dev.baton.bedrock;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * AWS credentials per connection, resolved by AWS's own providers and never on a caller's or an I/O thread: a
 * source's first resolution, and each refresh, run on this class's one daemon thread; requests in between sign with
 * the identity cached from the last one. An identity that expires is refreshed in the background from 5 minutes
 * before its expiry, and only a request that finds it within a minute of expiry (or expired) waits for the refresh.
 *
 * <p>Sources, in order: {@code access-key-id} and {@code secret-access-key} (and {@code session-token}) when set; else
 * the named {@code profile}; else AWS's default chain (environment, system properties, web identity, the default
 * profile, container and instance metadata), with its own asynchronous refresh. Thread-safe.
 */
final class BedrockCredentials {

    static final Duration REFRESH_AHEAD = Duration.ofMinutes(5);
    static final Duration USABLE_UNTIL = Duration.ofMinutes(1);

    private final Executor resolver;
    private final InstantSource clock;
    private final Map<Object, Cached> cache = new ConcurrentHashMap<>();

    BedrockCredentials(InstantSource clock) {
        this.clock = clock;
        ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                task -> {
                    Thread t = new Thread(task, "baton-bedrock-credentials");
                    t.setDaemon(true);
                    return t;
                });
        thread.allowCoreThreadTimeOut(true); // no thread lingers while nothing needs resolving
        this.resolver = thread;
    }

    /** Where a connection's credentials come from: its keys, its profile, or neither (the default chain). */
    record Source(String accessKeyId, String secretAccessKey, String sessionToken, String profile) {

        static Source of(Map<String, String> settings) {
            return new Source(blankToNull(settings.get("access-key-id")), blankToNull(settings.get("secret-access-key")),
                    blankToNull(settings.get("session-token")), blankToNull(settings.get("profile")));
        }

        /** The configuration mistake in these settings, naming the keys, or null. */
        String problem() {
            if ((accessKeyId == null) != (secretAccessKey == null)) {
                return "access-key-id and secret-access-key are set together or not at all";
            }
            if (sessionToken != null && accessKeyId == null) {
                return "session-token needs access-key-id and secret-access-key";
            }
            return null;
        }

        AwsCredentialsProvider provider() {
            if (accessKeyId != null) {
                return StaticCredentialsProvider.create(sessionToken == null
                        ? AwsBasicCredentials.create(accessKeyId, secretAccessKey)
                        : AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken));
            }
            if (profile != null) {
                return ProfileCredentialsProvider.builder().profileName(profile).build();
            }
            return DefaultCredentialsProvider.builder().asyncCredentialUpdateEnabled(true).build();
        }

        String describe() {
            return accessKeyId != null ? "the connection's access-key-id"
                    : profile != null ? "AWS profile '" + profile + "'" : "AWS's default credential chain";
        }

        /** Never the secret or the token. */
        @Override
        public String toString() {
            return "Source[" + describe() + "]";
        }

        private static String blankToNull(String value) {
            return value == null || value.isBlank() ? null : value.strip();
        }
    }

    /**
     * The identity to sign with now: at once from the cache when it is good for more than a minute, else when the
     * resolver thread has it. Fails with AWS's reason when no source has credentials.
     */
    CompletableFuture<AwsCredentialsIdentity> identity(Source source) {
        return identity(source, source::provider);
    }

    /** As {@link #identity(Source)}, with the provider {@code provider} makes the first time {@code key} is seen. */
    CompletableFuture<AwsCredentialsIdentity> identity(Object key, Supplier<AwsCredentialsProvider> provider) {
        return cache.computeIfAbsent(key, k -> new Cached(provider)).current();
    }

    private final class Cached {
        private final Supplier<AwsCredentialsProvider> factory;
        /** Made on the resolver thread, as building one may read files; touched there only. */
        private AwsCredentialsProvider provider;
        private volatile AwsCredentialsIdentity identity;
        private CompletableFuture<AwsCredentialsIdentity> refreshing; // guarded by this

        Cached(Supplier<AwsCredentialsProvider> factory) {
            this.factory = factory;
        }

        private AwsCredentialsIdentity resolve() {
            if (provider == null) {
                provider = factory.get();
            }
            return provider.resolveCredentials();
        }

        CompletableFuture<AwsCredentialsIdentity> current() {
            AwsCredentialsIdentity known = identity;
            Instant now = clock.instant();
            if (known != null && !expiresBefore(known, now.plus(USABLE_UNTIL))) {
                if (expiresBefore(known, now.plus(REFRESH_AHEAD))) {
                    refresh();
                }
                return CompletableFuture.completedFuture(known);
            }
            return refresh();
        }

        private synchronized CompletableFuture<AwsCredentialsIdentity> refresh() {
            CompletableFuture<AwsCredentialsIdentity> pending = refreshing;
            if (pending == null) {
                pending = CompletableFuture.supplyAsync(this::resolve, resolver);
                refreshing = pending;
                pending.whenComplete((resolved, error) -> {
                    if (resolved != null) {
                        identity = resolved;
                    }
                    synchronized (this) {
                        refreshing = null;
                    }
                });
            }
            return pending;
        }

        private boolean expiresBefore(AwsCredentialsIdentity identity, Instant when) {
            return identity.expirationTime().map(expiry -> expiry.isBefore(when)).orElse(false);
        }
    }
}
