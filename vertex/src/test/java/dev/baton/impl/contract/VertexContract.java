package dev.baton.impl.contract;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;
import dev.baton.spi.ProviderTarget;
import dev.baton.vertex.VertexAdapterFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The adapter contract for provider vertex against the simulated Vertex AI: every request carries an access token
 * that Google's auth library fetched from the simulator's token endpoint with the simulator's service-account key.
 */
abstract class VertexContract extends AdapterContract {

    @TempDir
    static Path dir;
    static Path keyFile;

    private final List<AutoCloseable> adapters = new ArrayList<>();

    /** The model id the targets name, as Vertex AI spells it. */
    abstract String model();

    @BeforeAll
    static void writeKey() {
        keyFile = sim.google().writeServiceAccountKey(dir.resolve("service-account.json"));
    }

    @AfterEach
    void stopRefreshers() throws Exception {
        for (AutoCloseable adapter : adapters) {
            adapter.close();
        }
    }

    /** The real factory; the adapters it creates are closed after each test, which stops their refreshers. */
    @Override
    ProviderAdapterFactory factory() {
        VertexAdapterFactory real = new VertexAdapterFactory();
        return new ProviderAdapterFactory() {
            @Override
            public String id() {
                return real.id();
            }

            @Override
            public ProviderAdapter create(AdapterContext context) {
                ProviderAdapter adapter = real.create(context);
                adapters.add((AutoCloseable) adapter);
                return adapter;
            }
        };
    }

    @Override
    URI baseUrl(String account) {
        return URI.create(sim.vertexBaseUrl(account));
    }

    @Override
    ProviderTarget target(URI base) {
        return new ProviderTarget("contract", "vertex", base, "", model(), Map.of(), List.of(),
                Map.of("project", "sim-project", "region", "us-east5", "credentials-file", keyFile.toString()));
    }
}
