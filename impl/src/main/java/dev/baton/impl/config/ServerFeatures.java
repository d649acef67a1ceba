package dev.baton.impl.config;

import dev.baton.exception.FailoverDefinitionException;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks at deployment that the server offers the application what its Baton configuration uses, so that a missing
 * server feature fails the deployment with a sentence naming the key and the feature, instead of a
 * {@code NoClassDefFoundError} when the engine starts.
 *
 * <p>Today one feature is checked: a connection's local limits ({@code max-concurrent}, {@code rate-limit}) are
 * SmallRye Fault Tolerance guards, bundled with Baton, whose exceptions extend the MicroProfile Fault Tolerance API.
 * Both servers keep that API out of an application unless their Fault Tolerance feature is on, and bundling it would
 * put a second copy beside the server's own when it is.
 */
public final class ServerFeatures {

    /** A class of the MicroProfile Fault Tolerance API that the guards load first. */
    static final String FAULT_TOLERANCE_API = "org.eclipse.microprofile.faulttolerance.Bulkhead";
    static final String FAULT_TOLERANCE = "MicroProfile Fault Tolerance, which this server does not offer the "
            + "application (Open Liberty: feature mpFaultTolerance-4.1; WildFly: subsystem "
            + "microprofile-fault-tolerance-smallrye, in standalone-microprofile.xml); turn it on or remove the key";

    private ServerFeatures() {
    }

    /**
     * Refuses a configuration that uses a feature {@code application} cannot load.
     *
     * @param application the class loader Baton's own classes run in, which sees what the server offers the
     *                    application
     * @throws FailoverDefinitionException naming every key that needs a missing feature
     */
    public static void require(BatonConfig config, ClassLoader application) {
        List<String> problems = problems(config.connections(), application);
        if (!problems.isEmpty()) {
            throw new FailoverDefinitionException("Baton's configuration needs a server feature that is missing:\n  - "
                    + String.join("\n  - ", problems));
        }
    }

    static List<String> problems(List<ConnectionConfig> connections, ClassLoader application) {
        List<String> problems = new ArrayList<>();
        if (present(FAULT_TOLERANCE_API, application)) {
            return problems;
        }
        for (ConnectionConfig c : connections) {
            String p = ConfigLoader.CONNECTIONS + "." + c.name() + ".";
            if (c.limits().maxConcurrent() > 0) {
                problems.add(p + "max-concurrent needs " + FAULT_TOLERANCE);
            }
            if (c.limits().ratePermits() > 0) {
                problems.add(p + "rate-limit needs " + FAULT_TOLERANCE);
            }
        }
        return problems;
    }

    private static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
