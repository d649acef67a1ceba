package dev.baton.impl.cdi;

import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warns, once per injection point, when a blocking call starts inside an active JTA transaction:
 * the transaction (and any database locks it holds) would stay open for as long as Baton fails
 * over, up to the deadline. Nothing is changed; the warning names the remedy.
 */
final class TransactionCheck {

    private static final System.Logger LOG = System.getLogger(TransactionCheck.class.getName());
    /** Where there is no JTA (Weld SE, a servlet container): nothing to warn about. */
    static final TransactionCheck NONE = new TransactionCheck(null);

    private final Object registry; // a TransactionSynchronizationRegistry; Object so this loads without JTA
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private TransactionCheck(Object registry) {
        this.registry = registry;
    }

    /**
     * Looks the registry up once. Call it on a thread the container manages (the application's
     * start): later calls may come from threads where {@code java:comp} cannot be read, and the
     * registry itself answers for whichever thread asks.
     */
    static TransactionCheck lookUp() {
        try {
            Object registry = new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
            return registry instanceof TransactionSynchronizationRegistry ? new TransactionCheck(registry) : NONE;
        } catch (NamingException | RuntimeException | LinkageError e) {
            return NONE;
        }
    }

    void warnIfActive(String site) {
        if (registry == null || warned.contains(site)
                || ((TransactionSynchronizationRegistry) registry).getTransactionStatus() != Status.STATUS_ACTIVE) {
            return;
        }
        if (warned.add(site)) {
            LOG.log(System.Logger.Level.WARNING, "FailoverChatService.complete (injected at " + site + ") was called"
                    + " inside an active transaction, which stays open while Baton waits and fails over, up to the"
                    + " route's deadline. Call it outside the transaction, e.g. from a method with"
                    + " @TransactionAttribute(NOT_SUPPORTED) or @Transactional(NOT_SUPPORTED). Warned once per injection point.");
        }
    }
}
