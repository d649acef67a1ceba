package dev.baton.impl.config;


import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Removes credentials from text before it reaches a record, a log line or an error: the
 * configured keys themselves and anything shaped like a provider key or bearer token. Also
 * bounds the length, since provider messages are untrusted input. Immutable, thread-safe.
 */
public final class Redactor {

    private static final Pattern KEY_SHAPES = Pattern.compile(
            "(sk-[A-Za-z0-9*_\\-.]{4,})|((?i:bearer)\\s+[A-Za-z0-9._~+/\\-]+=*)|((?i:api[-_]?key)[\"'=: ]+[A-Za-z0-9._\\-]{8,})");
    private static final int MAX_LENGTH = 500;

    private final List<String> secrets;

    /** Redacts every configured connection's key. */
    public static Redactor forConnections(Collection<ConnectionConfig> connections) {
        return new Redactor(connections.stream().map(ConnectionConfig::apiKey).toList());
    }

    public Redactor(Collection<String> secrets) {
        // Very short values would redact ordinary words; real keys are long.
        this.secrets = secrets.stream().filter(s -> s != null && s.length() >= 8).distinct().toList();
    }

    public String clean(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, "<redacted>");
        }
        out = KEY_SHAPES.matcher(out).replaceAll("<redacted>");
        out = out.replaceAll("[\\r\\n\\t]+", " ");
        return out.length() > MAX_LENGTH ? out.substring(0, MAX_LENGTH) + "…" : out;
    }
}
