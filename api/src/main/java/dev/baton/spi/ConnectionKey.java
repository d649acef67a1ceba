package dev.baton.spi;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A connection key a provider reads, declared by its {@link ProviderAdapterFactory}. Baton checks it when the
 * application deploys: whether it is set where required, whether its value has the declared format, whether a
 * per-model key names one of the connection's models. Immutable.
 *
 * @param name        what follows {@code baton.connections.<name>.}, for example {@code api-version}
 * @param setting     the name of the value in {@link ProviderTarget#settings()}
 * @param perModel    a family of keys, one per model: {@code <name>.<model>}; a target of that model sees the value
 *                    as {@code setting}
 * @param required    whether every connection of the provider must set it (never for a per-model key)
 * @param format      a regular expression the whole value must match, or {@code null} for any value
 * @param formatName  what the format is, for messages ("'x' is not {@code formatName}"), or {@code null}
 * @param secret      whether the value is a credential: Baton then never shows it in a message
 */
public record ConnectionKey(String name, String setting, boolean perModel, boolean required, Pattern format,
                            String formatName, boolean secret) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    public ConnectionKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(setting, "setting");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a connection key is lower-case kebab-case but was '" + name + "'");
        }
        if (perModel && required) {
            throw new IllegalArgumentException(name + ": a per-model key cannot be required");
        }
        if ((format == null) != (formatName == null)) {
            throw new IllegalArgumentException(name + ": a format needs a name, and a name a format");
        }
    }

    /** A key a connection may set; targets see it under its own name. */
    public static ConnectionKey optional(String name) {
        return new ConnectionKey(name, name, false, false, null, null, false);
    }

    /** A key every connection of the provider must set; targets see it under its own name. */
    public static ConnectionKey required(String name) {
        return new ConnectionKey(name, name, false, true, null, null, false);
    }

    /** Keys {@code <name>.<model>}; a target serving {@code model} sees the value as {@code setting}. */
    public static ConnectionKey perModel(String name, String setting) {
        return new ConnectionKey(name, setting, true, false, null, null, false);
    }

    /** This key, whose values must match {@code regex} whole; {@code formatName} says what that means. */
    public ConnectionKey withFormat(String regex, String formatName) {
        return new ConnectionKey(name, setting, perModel, required, Pattern.compile(regex),
                Objects.requireNonNull(formatName, "formatName"), secret);
    }

    /**
     * This key, holding a credential (a second token, a signing secret): its value is never shown in a configuration
     * error or in {@link ProviderTarget#toString()}, as an {@code api-key} is not.
     */
    public ConnectionKey asSecret() {
        return new ConnectionKey(name, setting, perModel, required, format, formatName, true);
    }
}
