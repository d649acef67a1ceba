package dev.baton.bedrock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Credentials resolved by AWS's providers on their own thread, cached, and refreshed ahead of expiry. */
class BedrockCredentialsTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-03T12:00:00Z"));
    private final BedrockCredentials credentials = new BedrockCredentials((InstantSource) now::get);

    /** A provider that counts its calls, notes their threads, and issues credentials valid for {@code life}. */
    private static final class Counting implements AwsCredentialsProvider {
        final AtomicInteger calls = new AtomicInteger();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final AtomicReference<Instant> clock;
        final Duration life;

        Counting(AtomicReference<Instant> clock, Duration life) {
            this.clock = clock;
            this.life = life;
        }

        @Override
        public AwsSessionCredentials resolveCredentials() {
            threads.add(Thread.currentThread().getName());
            int n = calls.incrementAndGet();
            return AwsSessionCredentials.builder().accessKeyId("AKIDTEST" + n).secretAccessKey("s" + n)
                    .sessionToken("t" + n).expirationTime(clock.get().plus(life)).build();
        }
    }

    @Test
    void resolvesOnItsOwnThreadOnceAndServesTheCacheAfterwards() throws Exception {
        Counting provider = new Counting(now, Duration.ofHours(1));

        AwsCredentialsIdentity first = credentials.identity("k", () -> provider).get(5, TimeUnit.SECONDS);
        CompletableFuture<AwsCredentialsIdentity> second = credentials.identity("k", () -> provider);

        assertEquals(List.of("baton-bedrock-credentials"), provider.threads);
        assertTrue(second.isDone(), "a cached identity is there at once");
        assertSame(first, second.get());
        assertEquals(1, provider.calls.get());
    }

    @Test
    void refreshesInTheBackgroundAheadOfExpiryAndWaitsOnlyWhenItIsNearlyExpired() throws Exception {
        Counting provider = new Counting(now, Duration.ofMinutes(10));
        AwsCredentialsIdentity first = credentials.identity("k", () -> provider).get(5, TimeUnit.SECONDS);

        now.set(now.get().plus(Duration.ofMinutes(6))); // 4 minutes left: inside the refresh window
        CompletableFuture<AwsCredentialsIdentity> stillGood = credentials.identity("k", () -> provider);
        assertTrue(stillGood.isDone());
        assertSame(first, stillGood.get());
        waitFor(() -> provider.calls.get() == 2);

        now.set(now.get().plus(Duration.ofMinutes(20))); // the refreshed one is expired too: wait for another
        AwsCredentialsIdentity third = credentials.identity("k", () -> provider).get(5, TimeUnit.SECONDS);
        assertEquals("AKIDTEST3", third.accessKeyId());
        assertEquals(List.of("baton-bedrock-credentials", "baton-bedrock-credentials", "baton-bedrock-credentials"),
                provider.threads);
    }

    @Test
    void aNamedProfileIsReadFromTheSharedCredentialsFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("credentials");
        Files.writeString(file, "[baton-test]\naws_access_key_id = AKIDPROFILE00001\n"
                + "aws_secret_access_key = profileSecret\n");
        String before = System.getProperty("aws.sharedCredentialsFile");
        System.setProperty("aws.sharedCredentialsFile", file.toString());
        try {
            BedrockCredentials.Source source = BedrockCredentials.Source.of(Map.of("profile", "baton-test"));

            AwsCredentialsIdentity identity = credentials.identity(source).get(5, TimeUnit.SECONDS);

            assertEquals("AKIDPROFILE00001", identity.accessKeyId());
            assertEquals("profileSecret", identity.secretAccessKey());
            assertNull(source.problem());
            assertFalse(source.toString().contains("profileSecret"));
        } finally {
            if (before == null) {
                System.clearProperty("aws.sharedCredentialsFile");
            } else {
                System.setProperty("aws.sharedCredentialsFile", before);
            }
        }
    }

    @Test
    void staticKeysComeFirstAndNeverShowInToString() throws Exception {
        BedrockCredentials.Source source = BedrockCredentials.Source.of(Map.of("access-key-id", "AKIDSTATIC000001",
                "secret-access-key", "staticSecret", "session-token", "staticToken", "profile", "ignored"));

        AwsCredentialsIdentity identity = credentials.identity(source).get(5, TimeUnit.SECONDS);

        assertEquals("staticSecret", identity.secretAccessKey());
        assertFalse(source.toString().contains("staticSecret") || source.toString().contains("staticToken")
                || source.toString().contains("AKIDSTATIC000001"), source.toString());
    }

    @Test
    void aProfileThatIsNotThereFailsTheFuture(@TempDir Path dir) {
        String before = System.getProperty("aws.sharedCredentialsFile");
        System.setProperty("aws.sharedCredentialsFile", dir.resolve("none").toString());
        try {
            ExecutionException e = assertThrows(ExecutionException.class, () -> credentials.identity(
                    BedrockCredentials.Source.of(Map.of("profile", "missing"))).get(5, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("missing"), e.getCause().getMessage());
        } finally {
            if (before == null) {
                System.clearProperty("aws.sharedCredentialsFile");
            } else {
                System.setProperty("aws.sharedCredentialsFile", before);
            }
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out");
            Thread.sleep(10);
        }
    }
}
