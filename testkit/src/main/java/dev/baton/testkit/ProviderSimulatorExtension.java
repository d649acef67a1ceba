package dev.baton.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs one {@link ProviderSimulator} per test class, resetting it after each test and closing it after the class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();
 * }</pre>
 * or {@code @ExtendWith(ProviderSimulatorExtension.class)} with a {@code ProviderSimulator} test parameter.
 *
 * <p>Thread-safe.
 */
public final class ProviderSimulatorExtension
        implements BeforeAllCallback, AfterAllCallback, AfterEachCallback, ParameterResolver {

    private ProviderSimulator simulator;
    /** Nested test classes re-enter beforeAll/afterAll; only the outermost class closes the simulator. */
    private int classDepth;

    /** The running simulator; started on first use so static initialisers may already ask for base URLs. */
    public synchronized ProviderSimulator simulator() {
        if (simulator == null) {
            simulator = ProviderSimulator.start();
        }
        return simulator;
    }

    public Account account(String name) {
        return simulator().account(name);
    }

    public String baseUrl(String account) {
        return simulator().baseUrl(account);
    }

    /** See {@link ProviderSimulator#anthropicBaseUrl(String)}. */
    public String anthropicBaseUrl(String account) {
        return simulator().anthropicBaseUrl(account);
    }

    /** See {@link ProviderSimulator#bedrockBaseUrl(String)}. */
    public String bedrockBaseUrl(String account) {
        return simulator().bedrockBaseUrl(account);
    }

    /** See {@link ProviderSimulator#vertexBaseUrl(String)}. */
    public String vertexBaseUrl(String account) {
        return simulator().vertexBaseUrl(account);
    }

    /** See {@link ProviderSimulator#geminiBaseUrl(String)}. */
    public String geminiBaseUrl(String account) {
        return simulator().geminiBaseUrl(account);
    }

    /** See {@link ProviderSimulator#google()}. */
    public GoogleCloud google() {
        return simulator().google();
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        classDepth++;
        simulator();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        simulator().reset();
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (--classDepth == 0 && simulator != null) {
            simulator.close();
            simulator = null;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ProviderSimulator.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return simulator();
    }
}
