package dev.baton.impl.servlet;

import dev.baton.impl.config.Budget;
import java.util.Set;

/**
 * A gateway key with a name ({@code baton.endpoint.keys.<name>.*}): its SHA-256, the routes and models it may name,
 * and its budget. The name, never the key, is what records, metrics and refusals show. Immutable.
 *
 * @param name          the configured name
 * @param sha256        the SHA-256 of the key
 * @param allowedModels the routes and models it may name; empty means whatever the endpoint allows
 * @param budget        its spending limit, or {@code null} for none
 */
record NamedKey(String name, byte[] sha256, Set<String> allowedModels, Budget budget) {

    NamedKey {
        sha256 = sha256.clone();
        allowedModels = Set.copyOf(allowedModels);
    }

    @Override
    public byte[] sha256() {
        return sha256.clone();
    }

    /** Whether this key may name {@code model}; the endpoint's own allowlist applies as well. */
    boolean allows(String model) {
        return allowedModels.isEmpty() || allowedModels.contains(model);
    }

    @Override
    public String toString() {
        return "NamedKey[" + name + "]";
    }
}
