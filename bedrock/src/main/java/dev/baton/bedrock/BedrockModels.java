package dev.baton.bedrock;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The built-in table of Bedrock model ids for {@code vendor/model} names ({@code models.properties} beside this
 * class), and the cross-region inference profile prefix. Immutable once loaded.
 */
final class BedrockModels {

    private final Map<String, String> ids;

    private BedrockModels(Map<String, String> ids) {
        this.ids = Map.copyOf(ids);
    }

    static BedrockModels builtIn() {
        Properties table = new Properties();
        try (InputStream in = BedrockModels.class.getResourceAsStream("models.properties")) {
            if (in == null) {
                throw new IllegalStateException("models.properties is missing from baton-bedrock's jar");
            }
            table.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read baton-bedrock's models.properties", e);
        }
        Map<String, String> ids = new TreeMap<>();
        table.stringPropertyNames().forEach(name -> ids.put(name, table.getProperty(name).strip()));
        return new BedrockModels(ids);
    }

    /** The {@code vendor/model} names the table has ids for. */
    Set<String> names() {
        return ids.keySet();
    }

    /** The vendors the table has models of. */
    Set<String> vendors() {
        Set<String> vendors = new TreeSet<>();
        ids.keySet().forEach(key -> vendors.add(key.substring(0, key.indexOf('/'))));
        return Set.copyOf(vendors);
    }

    /**
     * Bedrock's id for {@code vendor/model}, prefixed with {@code inferenceProfile} and a dot when that is set
     * ({@code us.anthropic.claude-…}); empty when the table does not know the model.
     */
    Optional<String> id(String vendor, String model, String inferenceProfile) {
        String id = ids.get(vendor + "/" + model);
        if (id == null) {
            return Optional.empty();
        }
        return Optional.of(inferenceProfile == null || inferenceProfile.isBlank() ? id : inferenceProfile + "." + id);
    }
}
