package dev.baton.impl.servlet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
        return match(authorization) != null;
    }

    /**
     * The stored digest the presented key matches, as hex, or {@code null}. The digest names the
     * caller (e.g. to scope its idempotency keys) without keeping the key itself.
     *
     * @param authorization the {@code Authorization} header, or {@code null}
     */
    String match(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        byte[] presented = sha256(authorization.substring(7).strip());
        byte[] matched = null;
        for (byte[] digest : digests) {
            if (MessageDigest.isEqual(digest, presented)) {
                matched = digest; // no early exit: every digest is compared
            }
        }
        return matched == null ? null : HexFormat.of().formatHex(matched);
    }

    static byte[] sha256(String key) {
        return sha256(key.getBytes(StandardCharsets.UTF_8));
    }

    /** SHA-256 of {@code bytes}: a gateway key, or an idempotent request's body. */
    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
