package dev.baton.impl.servlet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Checks a caller's gateway key against stored SHA-256 digests. Comparing digests with
 * {@link MessageDigest#isEqual} takes the same time whatever the key's length or content, and
 * every stored digest is compared, so timing tells an attacker nothing. Immutable, thread-safe.
 */
final class GatewayKeys {

    private final List<byte[]> digests;

    GatewayKeys(List<byte[]> digests) {
        this.digests = List.copyOf(digests);
    }

    boolean required() {
        return !digests.isEmpty();
    }

    /** @param authorization the {@code Authorization} header, or {@code null} */
    boolean accepts(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] presented = sha256(authorization.substring(7).strip());
        boolean match = false;
        for (byte[] digest : digests) {
            match |= MessageDigest.isEqual(digest, presented);
        }
        return match;
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
