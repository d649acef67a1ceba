package dev.baton.impl.cluster;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.Durations;
import org.eclipse.microprofile.config.Config;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;

/**
 * {@code baton.cluster.*}: whether the nodes of a cluster share what they learn about providers, and
 * through what. Immutable. {@link #toString()} never shows the URL's password.
 *
 * @param store          {@code memory} (the default: this node alone, nothing to install) or {@code redis}
 * @param url            {@code redis://} or {@code rediss://} (TLS) URL, password included; {@code null} for memory
 * @param keyPrefix      the prefix of every Redis key and channel Baton uses (default {@code baton:})
 * @param timeout        the longest Baton waits for one Redis command (default 50 ms); past it, this node
 *                       goes on with its own state
 * @param connectTimeout the longest one connection attempt takes (default 1 s)
 * @param node           this node's name in the cluster view (default: host name and process id)
 */
public record ClusterSettings(String store, String url, String keyPrefix, Duration timeout, Duration connectTimeout,
                              String node) {

    public static final String PREFIX = "baton.cluster.";
    private static final List<String> KEYS = List.of("store", "redis.url", "redis.key-prefix", "redis.timeout",
            "redis.connect-timeout", "node");
    public static final ClusterSettings MEMORY = new ClusterSettings("memory", null, "baton:", Duration.ofMillis(50),
            Duration.ofSeconds(1), defaultNode());

    public boolean redis() {
        return "redis".equals(store);
    }

    /** The URL without its user information: what logs, errors and the operator view show. */
    public String displayUrl() {
        return redactedUrl(url);
    }

    @Override
    public String toString() {
        return "ClusterSettings[store=" + store + ", url=" + displayUrl() + ", keyPrefix=" + keyPrefix + ", timeout="
                + timeout + ", connectTimeout=" + connectTimeout + ", node=" + node + "]";
    }

    /**
     * Reads {@code baton.cluster.*}. The URL usually holds the password as an expression, such as
     * {@code rediss://:${REDIS_PASSWORD}@redis.example:6380}, which MicroProfile Config expands.
     *
     * @throws FailoverDefinitionException naming every bad key (never a password)
     */
    public static ClusterSettings read(Config config) {
        List<String> problems = new ArrayList<>();
        for (String key : config.getPropertyNames()) {
            if (key.startsWith(PREFIX) && !KEYS.contains(key.substring(PREFIX.length()))) {
                problems.add(key + ": unknown key (the cluster's keys are " + KEYS + "; see docs/cluster.md)");
            }
        }
        String store = config.getOptionalValue(PREFIX + "store", String.class).map(s -> s.strip().toLowerCase(Locale.ROOT))
                .orElse("memory");
        if (!store.equals("memory") && !store.equals("redis") && !store.equals("invalid")) {
            problems.add(PREFIX + "store: must be memory or redis but was " + store);
        }
        String url;
        try {
            url = config.getOptionalValue(PREFIX + "redis.url", String.class).map(String::strip).orElse(null);
        } catch (NoSuchElementException unexpanded) { // names the missing variable, never a value
            problems.add(PREFIX + "redis.url: " + unexpanded.getMessage());
            url = null;
            store = "invalid";
        }
        if (store.equals("redis")) {
            String raw = config.getConfigValue(PREFIX + "redis.url").getRawValue();
            if ((url == null || url.isEmpty()) && raw != null && raw.contains("${")) {
                problems.add(PREFIX + "redis.url: a variable it names is not set (" + redactedUrl(raw) + ")");
            } else if (url == null || url.isEmpty()) {
                problems.add(PREFIX + "redis.url: required when " + PREFIX + "store=redis "
                        + "(redis://host:6379 or rediss://:${REDIS_PASSWORD}@host:6380)");
            } else {
                String problem = urlProblem(url);
                if (problem != null) {
                    problems.add(PREFIX + "redis.url: " + problem + " (" + redactedUrl(url) + ")");
                }
            }
        }
        String prefix = config.getOptionalValue(PREFIX + "redis.key-prefix", String.class).orElse(MEMORY.keyPrefix());
        if (prefix.isBlank() || prefix.chars().anyMatch(Character::isWhitespace)) {
            problems.add(PREFIX + "redis.key-prefix: must be non-empty without spaces but was '" + prefix + "'");
        }
        Duration timeout = duration(config, "redis.timeout", MEMORY.timeout(), Duration.ofMillis(1),
                Duration.ofSeconds(5), problems);
        Duration connectTimeout = duration(config, "redis.connect-timeout", MEMORY.connectTimeout(),
                Duration.ofMillis(10), Duration.ofSeconds(30), problems);
        String node = config.getOptionalValue(PREFIX + "node", String.class).map(String::strip).orElse(MEMORY.node());
        if (node.isEmpty() || node.length() > 100) {
            problems.add(PREFIX + "node: must have 1 to 100 characters");
        }
        if (!problems.isEmpty()) {
            throw new FailoverDefinitionException("Baton cluster configuration is invalid:\n  - "
                    + String.join("\n  - ", problems));
        }
        return new ClusterSettings(store, store.equals("redis") ? url : null, prefix, timeout, connectTimeout, node);
    }

    private static Duration duration(Config config, String key, Duration fallback, Duration min, Duration max,
                                     List<String> problems) {
        String text = config.getOptionalValue(PREFIX + key, String.class).orElse(null);
        if (text == null) {
            return fallback;
        }
        try {
            Duration d = Durations.parse(text);
            if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
                problems.add(PREFIX + key + ": must be between " + Durations.format(min) + " and "
                        + Durations.format(max) + " but was " + text.strip());
            }
            return d;
        } catch (IllegalArgumentException e) {
            problems.add(PREFIX + key + ": " + e.getMessage());
            return fallback;
        }
    }

    private static String urlProblem(String url) {
        if (url.contains("${")) {
            return "holds an expression that was not expanded (is the variable set?)";
        }
        try {
            URI uri = new URI(url);
            if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
                return "must start with redis:// or rediss://";
            }
            if (uri.getHost() == null) {
                return "names no host";
            }
            return null;
        } catch (URISyntaxException e) {
            return "is not a URL (characters such as / # ? % in a password must be percent-encoded)";
        }
    }

    /** {@code scheme://host:port/path} with any user information replaced by {@code ***}. */
    static String redactedUrl(String url) {
        if (url == null) {
            return null;
        }
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        if (scheme < 0) {
            return "<not a URL>";
        }
        return at > scheme ? url.substring(0, scheme + 3) + "***@" + url.substring(at + 1) : url;
    }

    private static String defaultNode() {
        String host = System.getenv("HOSTNAME"); // a Kubernetes pod's name
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                host = "node";
            }
        }
        return host + "/" + ProcessHandle.current().pid();
    }
}
