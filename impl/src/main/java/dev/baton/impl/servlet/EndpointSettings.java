package dev.baton.impl.servlet;

import dev.baton.impl.config.Budget;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.ConfigLoader;
import dev.baton.impl.config.Durations;
import org.eclipse.microprofile.config.Config;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The OpenAI-compatible endpoint's settings ({@code baton.endpoint.*}), read once at startup.
 *
 * @param enabled      whether the endpoint is registered at all (default false)
 * @param path         where it is mounted inside the application (default {@code /v1})
 * @param keyHashes    SHA-256 digests of the accepted gateway keys; empty means the container's own
 *                     security (or none) guards the endpoint
 * @param maxBodyBytes the largest request body accepted (default 1 MiB)
 * @param allowedModels the routes and models callers may name; empty means every configured one
 * @param adminKeyHashes SHA-256 digests of the operator keys; empty means the operator endpoints do not exist
 * @param idempotencyTtl how long a stored answer is replayed for a repeated {@code Idempotency-Key} (default 1 h)
 * @param idempotencyMaxEntries how many idempotency keys are kept at most, the oldest evicted first (default 10000)
 * @param namedKeys    gateway keys with a name, and each its own allowlist and budget ({@code keys.<name>.*})
 * @param maxN         the largest {@code n} a request may ask for ({@code limits.max-n}, default 8)
 * @param maxOutputTokens the largest {@code max_tokens} / {@code max_completion_tokens} a request may ask for
 *                     ({@code limits.max-output-tokens}, default 1,000,000: a sanity ceiling, not a budget)
 * @param console      whether the operator console is served at {@code {path}/console} ({@code console.enabled},
 *                     default false; needs the admin key)
 */
public record EndpointSettings(boolean enabled, String path, List<byte[]> keyHashes, int maxBodyBytes,
                               Set<String> allowedModels, List<byte[]> adminKeyHashes, Duration idempotencyTtl,
                               int idempotencyMaxEntries, List<NamedKey> namedKeys, int maxN,
                               long maxOutputTokens, boolean console) {

    static final String PREFIX = "baton.endpoint.";
    static final String NAMED = PREFIX + "keys.";
    private static final List<String> NAMED_ATTRIBUTES = List.of("sha256", "allowed-models", "budget");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Set<String> KEYS = ConfigLoader.ENDPOINT_KEYS;
    static final Duration DEFAULT_IDEMPOTENCY_TTL = Duration.ofHours(1);
    private static final Duration MAX_IDEMPOTENCY_TTL = Duration.ofDays(7);
    static final int DEFAULT_IDEMPOTENCY_ENTRIES = 10_000;
    private static final int MAX_IDEMPOTENCY_ENTRIES = 1_000_000;
    /** A handful of choices covers best-of sampling; more multiplies what one request is billed. */
    static final int DEFAULT_MAX_N = 8;
    /** OpenAI's own upper bound for {@code n}. */
    private static final int MAX_MAX_N = 128;
    static final long DEFAULT_MAX_OUTPUT_TOKENS = 1_000_000;
    private static final long MAX_MAX_OUTPUT_TOKENS = 1_000_000_000;

    public EndpointSettings {
        keyHashes = List.copyOf(keyHashes);
        allowedModels = Set.copyOf(allowedModels);
        adminKeyHashes = List.copyOf(adminKeyHashes);
        namedKeys = List.copyOf(namedKeys);
    }

    /** Whether callers must send a gateway key: some key, named or not, is configured. */
    /** The named keys' budgets, by name: the engine holds and charges them. */
    public Map<String, Budget> keyBudgets() {
        Map<String, Budget> budgets = new TreeMap<>();
        namedKeys.stream().filter(k -> k.budget() != null).forEach(k -> budgets.put(k.name(), k.budget()));
        return budgets;
    }

    public boolean keysRequired() {
        return !keyHashes.isEmpty() || !namedKeys.isEmpty();
    }

    /** Whether callers of the endpoint may name {@code model}. */
    public boolean allows(String model) {
        return allowedModels.isEmpty() || allowedModels.contains(model);
    }

    /** @throws FailoverDefinitionException naming every bad key */
    public static EndpointSettings load(Config config) {
        List<String> problems = new ArrayList<>();
        // Property names only: an environment variable's dotted guess (baton.endpoint.api.key.sha256) is no key.
        Set<String> keyNames = new TreeSet<>();
        for (String name : ConfigLoader.propertyKeys(config)) {
            if (name.startsWith(NAMED)) {
                String rest = name.substring(NAMED.length());
                int dot = rest.indexOf('.');
                if (dot <= 0 || !NAMED_ATTRIBUTES.contains(rest.substring(dot + 1))) {
                    problems.add(name + ": unknown key; expected " + NAMED + "<name>.<attribute>, the attribute one of "
                            + NAMED_ATTRIBUTES);
                } else if (!NAME.matcher(rest.substring(0, dot)).matches()) {
                    problems.add(name + ": the key name '" + rest.substring(0, dot)
                            + "' may only contain letters, digits, '-' and '_'");
                } else {
                    keyNames.add(rest.substring(0, dot));
                }
            } else if (name.startsWith(PREFIX) && !KEYS.contains(name.substring(PREFIX.length()))) {
                problems.add(name + ": unknown key; expected one of " + KEYS.stream().sorted().map(k -> PREFIX + k).toList()
                        + " or " + NAMED + "<name>.*");
            }
        }
        List<NamedKey> named = new ArrayList<>();
        for (String name : keyNames) {
            namedKey(config, name, problems).ifPresent(named::add);
        }
        String enabledText = config.getOptionalValue(PREFIX + "enabled", String.class).orElse("false").strip();
        if (!enabledText.equalsIgnoreCase("true") && !enabledText.equalsIgnoreCase("false")) {
            problems.add(PREFIX + "enabled: '" + enabledText + "' is not true or false");
        }
        String path = config.getOptionalValue(PREFIX + "path", String.class).orElse("/v1").strip();
        if (!path.matches("(/[A-Za-z0-9._~-]+)+")) {
            problems.add(PREFIX + "path: '" + path + "' must look like /v1 (slash-separated segments, no trailing slash)");
        }
        List<byte[]> hashes = digests(config, "api-key-sha256", problems);
        List<byte[]> adminHashes = digests(config, "admin-key-sha256", problems);
        for (byte[] admin : adminHashes) {
            if (hashes.stream().anyMatch(h -> MessageDigest.isEqual(h, admin))) {
                // One key for both would let every caller eject connections.
                problems.add(PREFIX + "admin-key-sha256: the admin key must differ from every " + PREFIX
                        + "api-key-sha256 key");
            }
        }
        for (int i = 0; i < named.size(); i++) {
            NamedKey key = named.get(i);
            String where = NAMED + key.name() + ".sha256";
            if (adminHashes.stream().anyMatch(h -> MessageDigest.isEqual(h, key.sha256()))) {
                problems.add(where + ": the admin key must differ from every gateway key");
            }
            if (hashes.stream().anyMatch(h -> MessageDigest.isEqual(h, key.sha256()))) {
                // Which one would apply: the named key's allowlist and budget, or none? Refuse rather than guess.
                problems.add(where + ": the same key is also listed in " + PREFIX + "api-key-sha256; list it once");
            }
            for (NamedKey earlier : named.subList(0, i)) {
                if (MessageDigest.isEqual(earlier.sha256(), key.sha256())) {
                    problems.add(where + ": the same key as " + NAMED + earlier.name() + ".sha256; each name needs a"
                            + " key of its own");
                }
            }
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
        Duration ttl = DEFAULT_IDEMPOTENCY_TTL;
        String ttlText = config.getOptionalValue(PREFIX + "idempotency-ttl", String.class).orElse(null);
        if (ttlText != null) {
            try {
                ttl = Durations.parse(ttlText);
                if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(MAX_IDEMPOTENCY_TTL) > 0) {
                    problems.add(PREFIX + "idempotency-ttl: must be between 1s and 7 days but was " + ttlText.strip());
                }
            } catch (IllegalArgumentException e) {
                problems.add(PREFIX + "idempotency-ttl: " + e.getMessage());
            }
        }
        int maxEntries = DEFAULT_IDEMPOTENCY_ENTRIES;
        String entriesText = config.getOptionalValue(PREFIX + "idempotency-max-entries", String.class).orElse(null);
        if (entriesText != null) {
            try {
                maxEntries = Integer.parseInt(entriesText.strip());
                if (maxEntries < 1 || maxEntries > MAX_IDEMPOTENCY_ENTRIES) {
                    problems.add(PREFIX + "idempotency-max-entries: must be between 1 and " + MAX_IDEMPOTENCY_ENTRIES
                            + " but was " + maxEntries);
                }
            } catch (NumberFormatException e) {
                problems.add(PREFIX + "idempotency-max-entries: '" + entriesText + "' is not a whole number");
            }
        }
        String consoleText = config.getOptionalValue(PREFIX + "console.enabled", String.class).orElse("false").strip();
        if (!consoleText.equalsIgnoreCase("true") && !consoleText.equalsIgnoreCase("false")) {
            problems.add(PREFIX + "console.enabled: '" + consoleText + "' is not true or false");
        } else if (Boolean.parseBoolean(consoleText) && adminHashes.isEmpty()) {
            // The console shows every connection and request: it opens only with the operators' key.
            problems.add(PREFIX + "console.enabled: the console needs the admin key; set " + PREFIX + "admin-key-sha256");
        }
        int maxN = (int) whole(config, "limits.max-n", DEFAULT_MAX_N, 1, MAX_MAX_N, problems);
        long maxOutputTokens = whole(config, "limits.max-output-tokens", DEFAULT_MAX_OUTPUT_TOKENS, 1,
                MAX_MAX_OUTPUT_TOKENS, problems);
        if (!problems.isEmpty()) {
            throw new FailoverDefinitionException("Baton endpoint configuration is invalid:\n  - "
                    + String.join("\n  - ", problems));
        }
        Set<String> allowed = new HashSet<>();
        for (String model : config.getOptionalValue(PREFIX + "allowed-models", String.class).orElse("").split(",")) {
            if (!model.isBlank()) {
                allowed.add(model.strip());
            }
        }
        return new EndpointSettings(Boolean.parseBoolean(enabledText), path, hashes, maxBody, allowed, adminHashes,
                ttl, maxEntries, named, maxN, maxOutputTokens, Boolean.parseBoolean(consoleText));
    }

    /** A whole number from {@code min} to {@code max}, or {@code fallback} when {@code key} is not set. */
    private static long whole(Config config, String key, long fallback, long min, long max, List<String> problems) {
        String text = config.getOptionalValue(PREFIX + key, String.class).orElse(null);
        if (text == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
            problems.add(PREFIX + key + ": must be between " + min + " and " + max + " but was " + value);
        } catch (NumberFormatException e) {
            problems.add(PREFIX + key + ": '" + text.strip() + "' is not a whole number");
        }
        return fallback;
    }

    /** {@code keys.<name>.*}: the digest is required; a bad value is a problem naming the key. */
    private static Optional<NamedKey> namedKey(Config config, String name, List<String> problems) {
        String p = NAMED + name + ".";
        int before = problems.size();
        byte[] digest = null;
        List<byte[]> digests = digests(config, "keys." + name + ".sha256", problems);
        if (digests.size() > 1) {
            problems.add(p + "sha256: one digest per named key; give each key a name of its own");
        } else if (digests.isEmpty() && problems.size() == before) {
            problems.add(p + "sha256: required, the SHA-256 of the key (printf %s \"$KEY\" | sha256sum)");
        } else if (!digests.isEmpty()) {
            digest = digests.get(0);
        }
        Set<String> models = new TreeSet<>();
        for (String model : config.getOptionalValue(p + "allowed-models", String.class).orElse("").split(",")) {
            if (!model.isBlank()) {
                models.add(model.strip());
            }
        }
        Budget budget = null;
        Optional<String> budgetText = config.getOptionalValue(p + "budget", String.class);
        if (budgetText.isPresent()) {
            try {
                budget = Budget.parse(budgetText.get());
            } catch (IllegalArgumentException e) {
                problems.add(p + "budget: " + e.getMessage());
            }
        }
        return problems.size() > before ? Optional.empty() : Optional.of(new NamedKey(name, digest, models, budget));
    }

    /** The comma-separated SHA-256 digests of {@code key}; a bad entry is a problem that never echoes the value. */
    private static List<byte[]> digests(Config config, String key, List<String> problems) {
        List<byte[]> hashes = new ArrayList<>();
        for (String hash : config.getOptionalValue(PREFIX + key, String.class).orElse("").split(",")) {
            String h = hash.strip().toLowerCase(Locale.ROOT);
            if (h.isEmpty()) {
                continue;
            }
            if (!h.matches("[0-9a-f]{64}")) {
                // Never echo it: someone may have pasted the key itself instead of its digest.
                problems.add(PREFIX + key + ": every entry must be 64 hex digits (the SHA-256 of a key, "
                        + "e.g. printf %s \"$KEY\" | sha256sum), not the key itself");
                continue;
            }
            hashes.add(HexFormat.of().parseHex(h));
        }
        return hashes;
    }
}
