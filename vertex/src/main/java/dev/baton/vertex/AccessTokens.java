package dev.baton.vertex;

import com.google.api.client.http.HttpResponseException;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import dev.baton.FailureKind;
import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The access tokens of every credential source the adapter's connections name (a service-account key file, or
 * Application Default Credentials), fetched and refreshed off the request path. One daemon thread, started with the
 * first source, fetches through Google's auth library (which blocks), a quarter of a token's life before it ends, and
 * again with a growing back-off after a failure. A request only reads the current token; while a source's first
 * token is on its way, it waits for it without holding a thread. Tokens never reach a log, a message or
 * {@code toString()}. Thread-safe.
 */
final class AccessTokens implements AutoCloseable {

    static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    /** The back-off after a failed fetch: 1 s, doubling, at most a minute. */
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofMinutes(1);
    /** A 401 asks for a new token at once, but not more often than this. */
    static final Duration FORCED_REFRESH_SPACING = Duration.ofSeconds(5);

    private static final System.Logger LOG = System.getLogger(AccessTokens.class.getName());
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final AdapterContext context;
    private final ScheduledThreadPoolExecutor refresher;
    private final Map<String, Source> sources = new ConcurrentHashMap<>();

    AccessTokens(AdapterContext context) {
        this.context = context;
        // The application's loader, for Google's ServiceLoader look-ups, whichever thread starts the refresher.
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        this.refresher = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "baton-vertex-tokens-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(loader);
            return thread;
        });
        refresher.setRemoveOnCancelPolicy(true);
    }

    /** The source of a connection's {@code credentials-file} ({@code null}: Application Default Credentials). */
    Source source(String credentialsFile) {
        return sources.computeIfAbsent(credentialsFile == null ? "" : credentialsFile, key -> {
            Source source = new Source(key.isEmpty() ? null : Path.of(key));
            source.schedule(Duration.ZERO);
            return source;
        });
    }

    /** Whether {@code thread} is one of the refresher's: tests check that fetches stay there. */
    static boolean isRefresherThread(Thread thread) {
        return thread.getName().startsWith("baton-vertex-tokens-");
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        ProviderException closed = new ProviderException(ProviderFailure.transport(FailureKind.CONNECTION,
                "the vertex adapter was closed"));
        sources.values().forEach(source -> source.failWaiters(closed));
    }

    /**
     * A token, when to stop sending it, and the project its credentials bill quota to ({@code null}: the resource's
     * own), which user credentials from ADC carry; its value is never shown.
     */
    record Token(String value, long usableUntilNanos, String quotaProject) {

        boolean usable() {
            return System.nanoTime() - usableUntilNanos < 0;
        }

        @Override
        public String toString() {
            return "Token[<hidden>]";
        }
    }

    /** One credential source: its current token, why its last fetch failed, and the requests waiting for a first token. */
    final class Source {

        private final Path file;
        private volatile Token token;
        private volatile ProviderFailure failure;
        private final List<CompletableFuture<Token>> waiters = new ArrayList<>(); // guarded by this
        // Read and written on the refresher thread only.
        private GoogleCredentials credentials;
        private int failures;
        private ScheduledFuture<?> next;
        private long lastForcedNanos = System.nanoTime() - FORCED_REFRESH_SPACING.toNanos();

        Source(Path file) {
            this.file = file;
        }

        /**
         * The token to send now; or, while none was ever fetched (or a fetch after an expiry is under way), the next
         * one, waiting at most {@code wait} without holding a thread. Fails at once, with the last fetch's failure,
         * when the token ran out and the refresher cannot get a new one: {@code credential} when Google refused the
         * credentials or they cannot be read, {@code connection} when its token endpoint could not be reached.
         */
        CompletableFuture<Token> token(Duration wait) {
            Token current = token;
            if (current != null && current.usable()) {
                return CompletableFuture.completedFuture(current);
            }
            CompletableFuture<Token> waiter = new CompletableFuture<>();
            synchronized (this) {
                current = token;
                if (current != null && current.usable()) {
                    return CompletableFuture.completedFuture(current);
                }
                ProviderFailure failed = failure;
                if (failed != null) {
                    return CompletableFuture.failedFuture(new ProviderException(failed));
                }
                waiters.add(waiter);
            }
            if (current != null) {
                refreshSoon(current.value()); // it ran out before its refresh: ask now
            }
            return waiter.orTimeout(wait.toNanos(), TimeUnit.NANOSECONDS).exceptionallyCompose(e -> {
                synchronized (this) {
                    waiters.remove(waiter);
                }
                return CompletableFuture.failedFuture(e instanceof TimeoutException ? new ProviderException(
                        ProviderFailure.transport(FailureKind.TIMEOUT, "no Vertex AI access token within "
                                + wait.toMillis() + " ms: Google's token endpoint has not answered yet")) : e);
            });
        }

        /**
         * Vertex answered 401 to {@code sent}: that token is no good (revoked, or expired early), so it is dropped and
         * a new one fetched now, unless that happened a moment ago.
         */
        void refreshSoon(String sent) {
            refresher.execute(() -> {
                Token current = token;
                if (current != null && !current.value().equals(sent)) {
                    return; // already replaced
                }
                if (System.nanoTime() - lastForcedNanos < FORCED_REFRESH_SPACING.toNanos()) {
                    return;
                }
                lastForcedNanos = System.nanoTime();
                token = null;
                schedule(Duration.ZERO);
            });
        }

        private void schedule(Duration delay) {
            if (refresher.isShutdown()) {
                return;
            }
            ScheduledFuture<?> previous = next;
            if (previous != null) {
                previous.cancel(false);
            }
            next = refresher.schedule(this::refresh, delay.toNanos(), TimeUnit.NANOSECONDS);
        }

        /** On the refresher thread: fetch a token, then plan the next fetch. */
        private void refresh() {
            try {
                if (credentials == null) {
                    credentials = load();
                }
                AccessToken fetched = credentials.refreshAccessToken();
                long lifeMillis = fetched.getExpirationTime() == null ? Duration.ofHours(1).toMillis()
                        : Math.max(1000, fetched.getExpirationTime().getTime() - System.currentTimeMillis());
                Duration life = Duration.ofMillis(lifeMillis);
                // Stop sending it a little before Google would (clock skew, the time a request takes to arrive).
                Duration margin = life.dividedBy(10).compareTo(Duration.ofMinutes(1)) < 0 ? life.dividedBy(10)
                        : Duration.ofMinutes(1);
                Token fresh = new Token(fetched.getTokenValue(), System.nanoTime() + life.minus(margin).toNanos(),
                        credentials.getQuotaProjectId());
                List<CompletableFuture<Token>> waiting;
                synchronized (this) {
                    token = fresh;
                    failure = null;
                    waiting = List.copyOf(waiters);
                    waiters.clear();
                }
                if (failures > 0) {
                    LOG.log(Level.INFO, "vertex: {0}: an access token was fetched again after {1} failed attempts",
                            name(), failures);
                }
                failures = 0;
                waiting.forEach(w -> w.complete(fresh));
                schedule(life.multipliedBy(3).dividedBy(4));
            } catch (IOException | RuntimeException e) {
                failures++;
                ProviderFailure failed = classify(e);
                synchronized (this) {
                    failure = failed;
                }
                Token current = token;
                if (current == null || !current.usable()) {
                    failWaiters(new ProviderException(failed));
                }
                long factor = 1L << Math.min(failures - 1, 6);
                Duration retry = FIRST_RETRY.multipliedBy(factor).compareTo(MAX_RETRY) < 0
                        ? FIRST_RETRY.multipliedBy(factor) : MAX_RETRY;
                LOG.log(failures == 1 ? Level.WARNING : Level.DEBUG, "vertex: {0}; trying again in {1} s (attempt {2})",
                        failed.message(), retry.toSeconds(), failures);
                schedule(retry);
            }
        }

        private GoogleCredentials load() throws IOException {
            if (file == null) {
                return GoogleCredentials.getApplicationDefault().createScoped(List.of(SCOPE));
            }
            // Only a service-account key: other credential types in a file can make the library run programs or
            // call URLs the file names.
            try (InputStream in = Files.newInputStream(file)) {
                return ServiceAccountCredentials.fromStream(in).createScoped(List.of(SCOPE));
            }
        }

        /** Refused credentials (a 4xx from the token endpoint, a key that cannot be read) or an endpoint out of reach. */
        private ProviderFailure classify(Exception e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof HttpResponseException response) {
                    int status = response.getStatusCode();
                    String detail = name() + ": Google's token endpoint answered HTTP " + status
                            + (response.getContent() != null ? ": " + response.getContent().strip() : "");
                    FailureKind kind = status >= 400 && status < 500 && status != 408 && status != 429
                            ? FailureKind.CREDENTIAL : FailureKind.CONNECTION;
                    return new ProviderFailure(kind, 0, null, null, context.redact(detail), null);
                }
            }
            if (credentials == null) {
                return new ProviderFailure(FailureKind.CREDENTIAL, 0, null, null, context.redact(name()
                        + ": the credentials cannot be read: " + e.getMessage()), null);
            }
            return ProviderFailure.transport(FailureKind.CONNECTION, context.redact(name()
                    + ": Google's token endpoint cannot be reached: " + e));
        }

        private void failWaiters(ProviderException error) {
            List<CompletableFuture<Token>> waiting;
            synchronized (this) {
                waiting = List.copyOf(waiters);
                waiters.clear();
            }
            waiting.forEach(w -> w.completeExceptionally(error));
        }

        private String name() {
            return file == null ? "Application Default Credentials" : "credentials-file " + file;
        }

        @Override
        public String toString() {
            return "Source[" + name() + "]";
        }
    }
}
