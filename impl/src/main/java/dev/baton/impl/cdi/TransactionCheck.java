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
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static volatile Object registry; // the TransactionSynchronizationRegistry, once found

    private TransactionCheck() {
    }

    static void warnIfActive(String site) {
        try {
            if (WARNED.contains(site) || !active()) {
                return;
            }
        } catch (LinkageError e) { // no JTA API in this runtime
            return;
        }
        if (WARNED.add(site)) {
            LOG.log(System.Logger.Level.WARNING, "FailoverChatService.complete (injected at " + site + ") was called"
                    + " inside an active transaction, which stays open while Baton waits and fails over, up to the"
                    + " route's deadline. Call it outside the transaction, e.g. from a method with"
                    + " @TransactionAttribute(NOT_SUPPORTED) or @Transactional(NOT_SUPPORTED). Warned once per injection point.");
        }
    }

    private static boolean active() {
        Object r = registry;
        if (r == null) {
            try {
                r = new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
                registry = r;
            } catch (NamingException | RuntimeException e) {
                return false; // no JTA on this thread (Weld SE, a thread the container does not manage)
            }
        }
        return r instanceof TransactionSynchronizationRegistry tsr && tsr.getTransactionStatus() == Status.STATUS_ACTIVE;
    }
}
