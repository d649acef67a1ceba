package dev.baton.system;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * Configuration a test adds to the sample's, in its own deployment only (registered as a
 * {@link ConfigSource} service of the archive). Its ordinal puts it above the sample's
 * microprofile-config.properties (100) and below system properties (400).
 */
abstract class DeploymentConfig implements ConfigSource {

    private final String name;
    private final Map<String, String> values;

    DeploymentConfig(String name, Map<String, String> values) {
        this.name = name;
        this.values = Map.copyOf(values);
    }

    @Override
    public Set<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return values.get(propertyName);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public int getOrdinal() {
        return 150;
    }
}
