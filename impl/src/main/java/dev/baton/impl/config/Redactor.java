package dev.baton.impl.config;


import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes credentials from text before it reaches a record, a log line or an error: the
 * configured keys themselves and anything shaped like a provider key or bearer token. Only the
 * secret is replaced, so the provider's sentence stays readable ("Incorrect API key provided:
 * &lt;redacted&gt;. You can find your API key at …"). Also bounds the length, since provider messages
 * are untrusted input. Immutable, thread-safe.
 *
 * <p>{@link #maskAccounts} is the second, stricter step for what a caller sees: the provider
 * account's organization, project, user and workspace identifiers. Records keep them (operators
 * need them to find the account); callers of the endpoint are not the account's owner.
 */
public final class Redactor {

    private static final String REDACTED = "<redacted>";
    /**
     * An OpenAI or Anthropic key ({@code sk-…}, {@code sk-proj-…}, {@code sk-ant-…}), not inside a word ("task-…");
     * a sentence's final dot is not part of it.
     */
    private static final Pattern SK_KEY = Pattern.compile("(?<![A-Za-z0-9])sk-[A-Za-z0-9*_\\-]+(?:\\.+[A-Za-z0-9*_\\-]+)*");
    /** {@code Bearer <token>}: the word stays, the token (8 characters or more, without a final dot) goes. */
    private static final Pattern BEARER = Pattern.compile(
            "((?i:bearer)\\s+)[A-Za-z0-9_~+/\\-]+(?:\\.+[A-Za-z0-9_~+/\\-]+)*=*(?<=\\S{8})");
    /**
     * {@code api_key=…}, {@code "x-api-key": "…"}: the label and separator stay. The value must look like a secret
     * (a digit in it, or 24 characters or more), so that OpenAI's code {@code invalid_api_key: Incorrect …} and the
     * phrase "API key provided" stay words.
     */
    private static final Pattern KEY_ASSIGNMENT = Pattern.compile(
            "((?i:api[-_ ]?key)[\"']?\\s*[=:]\\s*[\"']?)((?=[A-Za-z0-9._\\-]*[0-9])[A-Za-z0-9._\\-]{8,}|[A-Za-z0-9._\\-]{24,})");
    /**
     * The clouds' credentials by their shape: a Google API key ({@code AIza…}), a Google OAuth access token
     * ({@code ya29.…}) and the signature of an AWS {@code Authorization} header ({@code Signature=<64 hex digits>}).
     */
    private static final Pattern CLOUD_SECRET = Pattern.compile(
            "\\bAIza[0-9A-Za-z_\\-]{35}|\\bya29\\.[0-9A-Za-z_\\-.]+|(?<=Signature=)[0-9a-f]{64}");
    /** Account identifiers and what each becomes; see {@link #maskAccounts}. */
    private static final List<Map.Entry<Pattern, String>> ACCOUNT_IDS = List.of(
            Map.entry(Pattern.compile("\\borg-[A-Za-z0-9]{6,}"), "org-<hidden>"),
            Map.entry(Pattern.compile("\\bproj_[A-Za-z0-9]{6,}"), "proj_<hidden>"),
            Map.entry(Pattern.compile("\\buser-[A-Za-z0-9]{12,}"), "user-<hidden>"),
            Map.entry(Pattern.compile("\\bwrkspc_[A-Za-z0-9]{6,}"), "wrkspc_<hidden>"),
            Map.entry(Pattern.compile("\\bapikey_[A-Za-z0-9]{6,}"), "apikey_<hidden>"),
            // An AWS access key id (long-term AKIA…, temporary ASIA…) names the account's IAM user or role.
            Map.entry(Pattern.compile("\\bAKIA[A-Z0-9]{16}\\b"), "AKIA<hidden>"),
            Map.entry(Pattern.compile("\\bASIA[A-Z0-9]{16}\\b"), "ASIA<hidden>"),
            // Anthropic names organizations (and Azure subscriptions) by UUID.
            Map.entry(Pattern.compile("\\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\\b"),
                    "<hidden>"));
    private static final int MAX_LENGTH = 500;

    private final List<String> secrets;

    /** Redacts every configured connection's credentials: its key and its provider's secret settings. */
    public static Redactor forConnections(Collection<ConnectionConfig> connections) {
        return new Redactor(connections.stream().flatMap(c -> c.credentials().stream()).toList());
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
            out = out.replace(secret, REDACTED);
        }
        out = SK_KEY.matcher(out).replaceAll(REDACTED);
        out = CLOUD_SECRET.matcher(out).replaceAll(REDACTED);
        out = BEARER.matcher(out).replaceAll("$1" + REDACTED);
        out = KEY_ASSIGNMENT.matcher(out).replaceAll("$1" + REDACTED);
        out = out.replaceAll("[\\r\\n\\t]+", " ");
        return out.length() > MAX_LENGTH ? out.substring(0, MAX_LENGTH) + "…" : out;
    }

    /**
     * {@code text} with the provider account's identifiers replaced: OpenAI's {@code org-…}, {@code proj_…} and
     * {@code user-…}, Anthropic's workspace and key ids, AWS access key ids and any UUID (Anthropic's organization
     * ids). The rest of the
     * sentence stays: "Rate limit reached for gpt-4o in organization org-&lt;hidden&gt; on tokens per min …". Apply it
     * after {@link #clean}, to what a caller will see.
     */
    public static String maskAccounts(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (Map.Entry<Pattern, String> id : ACCOUNT_IDS) {
            out = id.getKey().matcher(out).replaceAll(Matcher.quoteReplacement(id.getValue()));
        }
        return out;
    }
}
