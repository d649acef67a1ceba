package dev.baton.langchain4j;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * MicroProfile Config for a Weld SE test, as system properties: each test starts from a fresh
 * config, and whatever it set is cleared after it. Register it on an instance field.
 */
final class ConfigProperties implements BeforeEachCallback, AfterEachCallback {

    private final Set<String> set = new LinkedHashSet<>();

    void set(String key, String value) {
        System.setProperty(key, value);
        set.add(key);
        release();
    }

    void clear(String key) {
        System.clearProperty(key);
        set.remove(key);
        release();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        release();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        set.forEach(System::clearProperty);
        set.clear();
        release();
    }

    /** Drops the cached config, so the next container reads the properties as they are now. */
    private static void release() {
        ConfigProviderResolver.instance().releaseConfig(ConfigProvider.getConfig());
    }
}
