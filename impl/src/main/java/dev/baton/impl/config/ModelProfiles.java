package dev.baton.impl.config;

import org.eclipse.microprofile.config.Config;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads {@code baton.models.<model>.*} into {@link ModelProfile}s. */
final class ModelProfiles {

    static final String PREFIX = "baton.models.";

    private ModelProfiles() {
    }

    /**
     * @param keys     every {@code baton.*} key
     * @param problems where to report each bad key, naming it
     */
    static Map<String, ModelProfile> load(Config config, Set<String> keys, List<String> problems) {
        return Map.of();
    }
}
