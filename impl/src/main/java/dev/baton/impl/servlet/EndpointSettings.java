package dev.baton.impl.servlet;

import dev.baton.exception.FailoverDefinitionException;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The OpenAI-compatible endpoint's settings ({@code baton.endpoint.*}), read once at startup.
 *
 * @param enabled      whether the endpoint is registered at all (default false)
 * @param path         where it is mounted inside the application (default {@code /v1})
 * @param keyHashes    SHA-256 digests of the accepted gateway keys; empty means the container's own
 *                     security (or none) guards the endpoint
 * @param maxBodyBytes the largest request body accepted (default 1 MiB)
 * @param allowedModels the routes and models callers may name; empty means every configured one
 */
public record EndpointSettings(boolean enabled, String path, List<byte[]> keyHashes, int maxBodyBytes,
                               Set<String> allowedModels) {

    static final String PREFIX = "baton.endpoint.";
    private static final Set<String> KEYS = Set.of("enabled", "path", "api-key-sha256", "max-body-bytes",
            "allowed-models");

    public EndpointSettings {
        keyHashes = List.copyOf(keyHashes);
        allowedModels = Set.copyOf(allowedModels);
    }

    /** Whether callers of the endpoint may name {@code model}. */
    public boolean allows(String model) {
        return allowedModels.isEmpty() || allowedModels.contains(model);
    }

    /** @throws FailoverDefinitionException naming every bad key */
    public static EndpointSettings load(Config config) {
        List<String> problems = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(PREFIX) && !KEYS.contains(name.substring(PREFIX.length()))) {
                problems.add(name + ": unknown key; expected one of " + KEYS.stream().sorted().map(k -> PREFIX + k).toList());
            }
        }
        String enabledText = config.getOptionalValue(PREFIX + "enabled", String.class).orElse("false").strip();
        if (!enabledText.equalsIgnoreCase("true") && !enabledText.equalsIgnoreCase("false")) {
            problems.add(PREFIX + "enabled: '" + enabledText + "' is not true or false");
        }
        String path = config.getOptionalValue(PREFIX + "path", String.class).orElse("/v1").strip();
        if (!path.matches("(/[A-Za-z0-9._~-]+)+")) {
            problems.add(PREFIX + "path: '" + path + "' must look like /v1 (slash-separated segments, no trailing slash)");
        }
        List<byte[]> hashes = new ArrayList<>();
        for (String hash : config.getOptionalValue(PREFIX + "api-key-sha256", String.class).orElse("").split(",")) {
            String h = hash.strip().toLowerCase(Locale.ROOT);
            if (h.isEmpty()) {
                continue;
            }
            if (!h.matches("[0-9a-f]{64}")) {
                // Never echo it: someone may have pasted the key itself instead of its digest.
                problems.add(PREFIX + "api-key-sha256: every entry must be 64 hex digits (the SHA-256 of a key, "
                        + "e.g. printf %s \"$KEY\" | sha256sum), not the key itself");
                continue;
            }
            hashes.add(HexFormat.of().parseHex(h));
        }
        int maxBody = 1024 * 1024;
        String maxText = config.getOptionalValue(PREFIX + "max-body-bytes", String.class).orElse(null);
        if (maxText != null) {
            try {
                maxBody = Integer.parseInt(maxText.strip());
                if (maxBody < 1024 || maxBody > 64 * 1024 * 1024) {
                    problems.add(PREFIX + "max-body-bytes: must be between 1024 and 67108864 but was " + maxBody);
                }
            } catch (NumberFormatException e) {
                problems.add(PREFIX + "max-body-bytes: '" + maxText + "' is not a whole number");
            }
        }
        if (!problems.isEmpty()) {
            throw new FailoverDefinitionException("Baton endpoint configuration is invalid:\n  - "
                    + String.join("\n  - ", problems));
        }
        Set<String> allowed = new java.util.HashSet<>();
        for (String model : config.getOptionalValue(PREFIX + "allowed-models", String.class).orElse("").split(",")) {
            if (!model.isBlank()) {
                allowed.add(model.strip());
            }
        }
        return new EndpointSettings(Boolean.parseBoolean(enabledText), path, hashes, maxBody, allowed);
    }
}
