package dev.baton.system;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The configuration {@link CostAndBudgetIT} adds to the sample: a custom price for the sample's model, and named
 * gateway keys. {@code tiny} and {@code streamer} may spend a millionth of a dollar a day, so one answer spends it;
 * {@code roomy} has a large budget and may only name the route {@code demo}.
 */
public class CostConfig extends DeploymentConfig {

    static final String INPUT = "2.00";
    static final String OUTPUT = "8.00";
    static final String TINY_KEY = "baton-it-tiny-key";
    static final String STREAMER_KEY = "baton-it-streamer-key";
    static final String ROOMY_KEY = "baton-it-roomy-key";

    private static final Map<String, String> VALUES = Map.ofEntries(
            Map.entry("baton.models.gpt-5.4-mini.price.input", INPUT),
            Map.entry("baton.models.gpt-5.4-mini.price.output", OUTPUT),
            Map.entry("baton.endpoint.keys.tiny.sha256", sha256(TINY_KEY)),
            Map.entry("baton.endpoint.keys.tiny.budget", "0.002/1d"),
            Map.entry("baton.endpoint.keys.streamer.sha256", sha256(STREAMER_KEY)),
            Map.entry("baton.endpoint.keys.streamer.budget", "0.002/1d"),
            Map.entry("baton.endpoint.keys.roomy.sha256", sha256(ROOMY_KEY)),
            Map.entry("baton.endpoint.keys.roomy.budget", "1000/30d"),
            Map.entry("baton.endpoint.keys.roomy.allowed-models", "demo"));

    public CostConfig() {
        super("baton-cost-tests", VALUES);
    }

    static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
