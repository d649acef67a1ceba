package dev.baton.impl.servlet;

import jakarta.servlet.ServletContext;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The responses of one application not yet ended, to tell a quiet server from a busy one. A finished answer is
 * flushed by {@code complete()}, on Open Liberty from another thread; flushing it from the writing thread first sends
 * it a hand-off sooner, but costs a write of its own. While no more responses are open than there are cores, a core is
 * free for that write; beyond, the write costs more CPU than it saves time and {@link AsyncOutput} leaves it out.
 *
 * <p>Thread-safe.
 */
final class OpenResponses {

    private static final String ATTRIBUTE = OpenResponses.class.getName();

    private final AtomicInteger open = new AtomicInteger();
    private final int quietUpTo;

    OpenResponses(int quietUpTo) {
        this.quietUpTo = quietUpTo;
    }

    /**
     * The application's counter, kept in its servlet context (created by the first response), so that every servlet of
     * the application counts in the same one, and a redeployed application starts from zero.
     */
    static OpenResponses of(ServletContext application) {
        if (application.getAttribute(ATTRIBUTE) instanceof OpenResponses found) {
            return found;
        }
        synchronized (OpenResponses.class) {
            if (application.getAttribute(ATTRIBUTE) instanceof OpenResponses found) {
                return found;
            }
            OpenResponses created = new OpenResponses(Runtime.getRuntime().availableProcessors());
            application.setAttribute(ATTRIBUTE, created);
            return created;
        }
    }

    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        open.decrementAndGet();
    }

    boolean quiet() {
        return open.get() <= quietUpTo;
    }
}
