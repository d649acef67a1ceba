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

    /** Copied for each digest: {@code MessageDigest.getInstance} searches the security providers on every call. */
    private static final MessageDigest SHA_256 = newSha256();

    private final List<byte[]> digests;
    /** {@link #digests} as hex, the form {@link #match} returns. */
    private final List<String> hex;

    GatewayKeys(List<byte[]> digests) {
        this.digests = List.copyOf(digests);
        this.hex = this.digests.stream().map(HexFormat.of()::formatHex).toList();
    }

    boolean required() {
        return !digests.isEmpty();
    }

    /**
     * The digest of the key an {@code Authorization} header presents, or {@code null} when it presents no bearer key.
     * Computed once a request, however many sets of keys it is matched against.
     */
    static byte[] presented(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return sha256(authorization.substring(7).strip());
    }

    /**
     * The stored digest a presented key's digest matches, as hex, or {@code null}. The digest names the caller (e.g.
     * to scope its idempotency keys) without keeping the key itself.
     *
     * @param presented from {@link #presented}, or {@code null}
     */
    String match(byte[] presented) {
        if (presented == null) {
            return null;
        }
        String matched = null;
        for (int i = 0; i < digests.size(); i++) {
            if (MessageDigest.isEqual(digests.get(i), presented)) {
                matched = hex.get(i); // no early exit: every digest is compared
            }
        }
        return matched;
    }

    static byte[] sha256(String key) {
        return sha256(key.getBytes(StandardCharsets.UTF_8));
    }

    /** SHA-256 of {@code bytes}: a gateway key, or an idempotent request's body. */
    static byte[] sha256(byte[] bytes) {
        MessageDigest digest;
        try {
            digest = (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException notCopyable) {
            digest = newSha256(); // a provider whose digests cannot be copied: looked up each time
        }
        return digest.digest(bytes);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
