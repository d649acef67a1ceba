package dev.baton.system;

import java.util.Map;

/**
 * Two named gateway keys beside the sample's unnamed one, for {@link IdempotencyIT}: whose records and whose
 * idempotency keys are whose. Neither has an allowlist or a budget.
 */
public class CallersConfig extends DeploymentConfig {

    static final String ALICE_KEY = "baton-it-alice-key";
    static final String BOB_KEY = "baton-it-bob-key";

    private static final Map<String, String> VALUES = Map.of(
            "baton.endpoint.keys.alice.sha256", CostConfig.sha256(ALICE_KEY),
            "baton.endpoint.keys.bob.sha256", CostConfig.sha256(BOB_KEY));

    public CallersConfig() {
        super("baton-callers-tests", VALUES);
    }
}
