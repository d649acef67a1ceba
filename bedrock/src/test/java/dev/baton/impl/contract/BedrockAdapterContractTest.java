package dev.baton.impl.contract;

import dev.baton.bedrock.BedrockAdapter;
import dev.baton.bedrock.BedrockAdapterFactory;
import dev.baton.spi.ProviderAdapterFactory;
import dev.baton.spi.ProviderTarget;
import org.junit.jupiter.api.BeforeEach;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The adapter contract for provider bedrock, SigV4-signed: the simulator checks every signature with AWS's own
 * signer, and the secret access key is the contract's key, which no message may show.
 */
class BedrockAdapterContractTest extends AdapterContract {

    static final String ACCESS_KEY_ID = "AKIDCONTRACT0000";

    @BeforeEach
    void requireSignatures() {
        sim.account("a").awsCredentials(ACCESS_KEY_ID, KEY);
    }

    @Override
    ProviderAdapterFactory factory() {
        return new BedrockAdapterFactory();
    }

    @Override
    URI baseUrl(String account) {
        return URI.create(sim.bedrockBaseUrl(account));
    }

    @Override
    ProviderTarget target(URI base) {
        return new ProviderTarget("contract", BedrockAdapter.ID, base, "", "anthropic.claude-sonnet-4-5-20250929-v1:0",
                Map.of(), List.of(), Map.of("region", "us-east-1", "access-key-id", ACCESS_KEY_ID,
                "secret-access-key", KEY));
    }
}
